/**
 * The MCP host's sessions (docs/behaviour.md §4.6; docs/hostile-input.md §7): one per `initialize`,
 * named by the `Mcp-Session-Id` the host gives out, bound to the caller who opened it, and bounded —
 * at most `APP_MCP__MAX_SESSIONS` per process (opening one more closes the least recently used) and
 * closed after `APP_MCP__SESSION_TIMEOUT` ms unused — so clients that never end their sessions, or
 * open many, cannot hold memory without bound.
 */

/** What the table needs of a session: who opened it and how to end it. */
export interface TableSession {
  /** Who opened it: a request from anyone else is answered as if the session did not exist. */
  readonly owner: string;
  /** Ends the session (its transport and server); must not reject. */
  close(): Promise<void>;
}

/** Sessions by id, least recently used first. */
export class SessionTable<Session extends TableSession> {
  private readonly sessions = new Map<string, { session: Session; lastUsed: number }>();
  private readonly sweeper: NodeJS.Timeout;

  /**
   * @param max sessions kept at once; adding one more closes the least recently used
   * @param idleMs milliseconds a session may go unused before it is closed
   * @param onEvicted told of each session closed for either reason (for the log)
   */
  constructor(
    private readonly max: number,
    private readonly idleMs: number,
    private readonly onEvicted: (id: string, reason: 'idle' | 'capacity') => void,
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

  /** Keeps `session` as `id`, first closing the least recently used session when the table is full. */
  add(id: string, session: Session): void {
    while (this.sessions.size >= this.max) {
      const [oldest] = this.sessions.keys();
      if (oldest === undefined) break;
      this.evict(oldest, 'capacity');
    }
    this.sessions.set(id, { session, lastUsed: Date.now() });
  }

  /** Forgets `id` (its session ended). */
  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes every session and stops sweeping (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()].map((entry) => entry.session);
    this.sessions.clear();
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

  private evict(id: string, reason: 'idle' | 'capacity'): void {
    const entry = this.sessions.get(id);
    this.sessions.delete(id);
    if (!entry) return;
    this.onEvicted(id, reason);
    void entry.session.close();
  }
}
