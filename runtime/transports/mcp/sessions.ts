/**
 * The MCP host's sessions (docs/behaviour.md §4.6; docs/hostile-input.md §7): one per `initialize`,
 * named by the `Mcp-Session-Id` the host gives out, bound to the caller who opened it, and bounded
 * so that clients that never end their sessions, or open many, cannot hold memory without bound —
 * nor take the places of others:
 *
 * - signed-in callers share a pool of `APP_MCP__MAX_SESSIONS`, anonymous ones a smaller pool of
 *   their own, `APP_MCP__MAX_ANONYMOUS_SESSIONS`: opening one more in a full pool closes that
 *   pool's least recently used session, so anonymous sessions never close signed-in ones;
 * - one caller (a principal, or an anonymous address) holds at most
 *   `APP_MCP__MAX_SESSIONS_PER_CALLER`: opening one more closes that caller's least recently used;
 * - a session unused for `APP_MCP__SESSION_TIMEOUT` ms is closed.
 */

/** What the table needs of a session: who opened it and how to end it. */
export interface TableSession {
  /** Who opened it: a request from anyone else is answered as if the session did not exist. */
  readonly owner: string;
  /** Whose quota it counts against: the principal, or an anonymous caller's address. */
  readonly quota: string;
  /** Whether its caller was anonymous (the smaller pool). */
  readonly anonymous: boolean;
  /** Ends the session (its transport and server); must not reject. */
  close(): Promise<void>;
}

/** How many sessions the table keeps (module docstring). */
export interface SessionLimits {
  /** Sessions of signed-in callers at once. */
  readonly signedIn: number;
  /** Sessions of anonymous callers at once. */
  readonly anonymous: number;
  /** Sessions of one caller at once. */
  readonly perCaller: number;
}

/** Why a session was closed by the table. */
export type EvictionReason = 'idle' | 'capacity' | 'caller';

/** Sessions by id, least recently used first. */
export class SessionTable<Session extends TableSession> {
  private readonly sessions = new Map<string, { session: Session; lastUsed: number }>();
  /** Open sessions by quota, and per pool. */
  private readonly perQuota = new Map<string, number>();
  private readonly perPool = { anonymous: 0, signedIn: 0 };
  private readonly sweeper: NodeJS.Timeout;

  /**
   * @param limits sessions kept at once, per pool and per caller
   * @param idleMs milliseconds a session may go unused before it is closed
   * @param onEvicted told of each session closed by the table, and why (for the log)
   */
  constructor(
    private readonly limits: SessionLimits,
    private readonly idleMs: number,
    private readonly onEvicted: (id: string, reason: EvictionReason, session: Session) => void,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1_000, Math.floor(idleMs / 2))));
    this.sweeper.unref();
  }

  /** Sessions open now. */
  get size(): number {
    return this.sessions.size;
  }

  /** The session `id` if it exists and `owner` opened it (marking it used); else undefined. */
  use(id: string, owner: string): Session | undefined {
    const entry = this.sessions.get(id);
    if (entry?.session.owner !== owner) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, { session: entry.session, lastUsed: Date.now() });
    return entry.session;
  }

  /**
   * Keeps `session` as `id`, first closing its caller's least recently used session while the
   * caller is at its limit, then its pool's while the pool is full.
   */
  add(id: string, session: Session): void {
    while (
      (this.perQuota.get(session.quota) ?? 0) >= this.limits.perCaller &&
      this.evictOldest((other) => other.quota === session.quota, 'caller')
    ) {
      // Evicted one of the caller's own.
    }
    const pool = session.anonymous ? 'anonymous' : 'signedIn';
    while (this.perPool[pool] >= this.limits[pool] && this.evictOldest((other) => other.anonymous === session.anonymous, 'capacity')) {
      // Evicted the pool's least recently used.
    }
    this.sessions.set(id, { session, lastUsed: Date.now() });
    this.count(session, 1);
  }

  /** Forgets `id` (its session ended). */
  delete(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    this.count(entry.session, -1);
  }

  /** Closes every session and stops sweeping (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()].map((entry) => entry.session);
    this.sessions.clear();
    this.perQuota.clear();
    this.perPool.anonymous = 0;
    this.perPool.signedIn = 0;
    await Promise.all(open.map((session) => session.close()));
  }

  /** Closes the sessions unused for longer than the idle timeout. */
  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, entry] of this.sessions) {
      // Least recently used first: the first one used after the cutoff ends the sweep.
      if (entry.lastUsed > cutoff) break;
      this.evict(id, 'idle');
    }
  }

  /** Closes the least recently used session that `matches`; false when none does. */
  private evictOldest(matches: (session: Session) => boolean, reason: EvictionReason): boolean {
    for (const [id, entry] of this.sessions) {
      if (!matches(entry.session)) continue;
      this.evict(id, reason);
      return true;
    }
    return false;
  }

  private evict(id: string, reason: EvictionReason): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.delete(id);
    this.onEvicted(id, reason, entry.session);
    void entry.session.close();
  }

  /** Counts `session` in (`1`) or out (`-1`) of its quota and pool. */
  private count(session: Session, change: 1 | -1): void {
    const held = (this.perQuota.get(session.quota) ?? 0) + change;
    if (held > 0) this.perQuota.set(session.quota, held);
    else this.perQuota.delete(session.quota);
    this.perPool[session.anonymous ? 'anonymous' : 'signedIn'] += change;
  }
}
