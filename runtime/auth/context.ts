/**
 * The ambient request context (docs/behaviour.md §5): who is calling and what they may do, carried through
 * the request's async work with AsyncLocalStorage so services and repositories read it without
 * threading it through every call.
 *
 * Fail closed (docs/behaviour.md §5.6): outside a context, or in a request context without an ability,
 * scoped queries deny every row. Only {@link runUnscoped} (jobs, seeds, migrations; docs/behaviour.md §5.9)
 * lifts the scope, and only explicitly.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccessScope, AppAbility, Principal } from './ability.js';
import { FailureError } from '../failures/result.js';
import { jsonBytesWithin } from '../http/answer.js';
import type { RequestObservation } from '../observability/observation.js';

/** What one request (or one job) runs with. */
export interface RequestContext extends AccessScope {
  /** The verified caller, or undefined for an anonymous request. */
  readonly principal: Principal | undefined;
  /** The caller's ability; undefined means every scoped query denies every row. */
  readonly ability: AppAbility | undefined;
  /** True only inside {@link runUnscoped}: queries are not filtered by any ability. */
  readonly unscoped: boolean;
  /**
   * What serves the request, as it names its requests (`http` for the Express chain's, `graphql`,
   * `mcp`: each transport sets its own), named in refusals and logs. Any request's context lifts
   * no row scope, whichever transport it names (docs/behaviour.md §5.9).
   */
  readonly transport?: string;
  /** Rows this request may still materialise (GraphQL operations; docs/hostile-input.md §3). */
  readonly rows?: RowBudget;
  /**
   * What the server notes about the request (docs/behaviour.md §12): its id, which every log line
   * written while serving it carries, and the statements it sends.
   */
  readonly observation?: RequestObservation;
  /**
   * Inside a public operation's own call ({@link runPublicOperation}): repositories scope the rows
   * they read to the caller but do not mask them, as the operation's value is deliberately unmasked
   * (docs/behaviour.md §5.7). Relation fields below it read through the request's own context, masked.
   */
  readonly unmasked?: boolean;
}

/**
 * The ceilings on what one GraphQL operation (or MCP call) materialises (docs/hostile-input.md §3,
 * §14): rows (`APP_GRAPHQL__MAX_ROWS`), the last line of defence behind the complexity score, and
 * bytes (`APP_GRAPHQL__MAX_RESPONSE_BYTES`), which the complexity score does not see — a page of
 * rows with 10 000-character bodies weighs what a thousand pages of ids do. Rows are counted as
 * they are read ({@link take}); bytes as the answer uses them ({@link spend}): as JSON writes the
 * rows, escapes included, each time a row is handed to execution — a page of an author's posts
 * repeated under every one of their posts counts at every repetition. Past a ceiling it throws a
 * `ROW_LIMIT` or `RESPONSE_TOO_LARGE` failure, so the field being resolved errors and nothing more
 * is read or resolved below it.
 */
export class RowBudget {
  private used = 0;
  private bytes = 0;

  /**
   * @param limit rows one operation (or one subscription event) may materialise
   * @param byteLimit bytes of JSON its rows may write, counted at each use
   * @param byteSetting the setting bounding them, named in a refusal
   */
  constructor(
    readonly limit: number,
    readonly byteLimit = Number.POSITIVE_INFINITY,
    private readonly byteSetting = 'APP_GRAPHQL__MAX_RESPONSE_BYTES',
  ) {}

  /** Rows materialised so far. */
  get count(): number {
    return this.used;
  }

  /**
   * Counts `rows` (each read row, as the database returned it); with `spent`, also the bytes they
   * write, for rows the answer uses as they are read (an operation's own). Throws `ROW_LIMIT` or
   * `RESPONSE_TOO_LARGE` (a {@link FailureError}) once past a ceiling.
   */
  take(rows: readonly unknown[], spent = true): void {
    this.used += rows.length;
    if (this.used > this.limit) {
      throw new FailureError({
        code: 'ROW_LIMIT',
        message: `the operation reads more than ${this.limit} rows (APP_GRAPHQL__MAX_ROWS); ask for smaller pages (first) or fewer nested relations`,
      });
    }
    if (spent && this.byteLimit !== Number.POSITIVE_INFINITY) for (const row of rows) this.spend(rowBytes(row));
  }

  /** Counts `bytes` the answer writes (a relation's rows, at each use); throws `RESPONSE_TOO_LARGE` once past the ceiling. */
  spend(bytes: number): void {
    if (this.byteLimit === Number.POSITIVE_INFINITY) return;
    this.bytes += bytes;
    if (this.bytes > this.byteLimit) {
      throw new FailureError({
        code: 'RESPONSE_TOO_LARGE',
        message: `the operation's answer is larger than ${this.byteLimit} bytes (${this.byteSetting}); ask for smaller pages (first), fewer fields or fewer nested relations`,
      });
    }
  }

  /** Whether bytes are counted at all (a finite byte ceiling). */
  get countsBytes(): boolean {
    return this.byteLimit !== Number.POSITIVE_INFINITY;
  }

  /** Starts counting again (each event of a subscription has the whole budget). */
  reset(): void {
    this.used = 0;
    this.bytes = 0;
  }
}

/** The bytes each row writes, once counted (rows are not changed once read). */
const rowSizes = new WeakMap<object, number>();

/**
 * The bytes of JSON `row` writes (docs/hostile-input.md §14): escaped and in UTF-8, as every
 * transport writes it; counted once per row.
 */
export function rowBytes(row: unknown): number {
  if (typeof row !== 'object' || row === null) return jsonBytesWithin(row, Number.POSITIVE_INFINITY) ?? 0;
  let bytes = rowSizes.get(row);
  if (bytes === undefined) {
    bytes = jsonBytesWithin(row, Number.POSITIVE_INFINITY) ?? 0;
    rowSizes.set(row, bytes);
  }
  return bytes;
}

/**
 * Thrown by {@link runUnscoped} inside a request's context: request transports may not lift the
 * row scope (docs/behaviour.md §5.9; docs/hostile-input.md §4). Reported to the caller as an internal error.
 */
export class UnscopedInRequestError extends Error {
  override readonly name = 'UnscopedInRequestError';

  constructor(transport: string | undefined) {
    super(
      `runUnscoped was called while serving a request (transport: ${transport ?? 'unknown'}): request transports may not lift the row scope (docs/behaviour.md §5.9). ` +
        "Read through the caller's scope, or move the work to a job, seed, migration, scheduled task or listener, which may run unscoped.",
    );
  }
}

/**
 * What the request's one AsyncLocalStorage carries: the {@link RequestContext}, and the active
 * trace context of ../observability/otel.ts (opaque here). One storage, not one per concern: a
 * second one for traces, entered as each request arrived, cost a point lookup traced one request
 * in ten about a sixth of its rate (docs/decisions.md §12, "One AsyncLocalStorage").
 */
interface Ambient {
  readonly context: RequestContext | undefined;
  readonly trace: unknown;
}

const storage = new AsyncLocalStorage<Ambient>();

/** The context with no caller: every scoped read is empty (fail closed). */
export const ANONYMOUS: RequestContext = Object.freeze({ principal: undefined, ability: undefined, unscoped: false });

/**
 * Runs `fn` with `context` as the ambient context; returns what `fn` returns. The active trace
 * context stays, or, outside any, becomes the one of the request `context` observes
 * (`RequestObservation.traceContext`): a request's span is active from here on.
 */
export function runInContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run({ context, trace: storage.getStore()?.trace ?? context.observation?.traceContext }, fn);
}

/** The context of {@link runUnscoped}. */
const UNSCOPED: RequestContext = Object.freeze({ principal: undefined, ability: undefined, unscoped: true });

/**
 * Runs `fn` without row scope (docs/behaviour.md §5.9: jobs, seeds, migrations, scheduled tasks and listeners
 * may run unscoped; request transports may not). This is the only way to lift the scope.
 *
 * Fails closed: it runs only where no request context is active (outside any context, or already
 * unscoped). Inside a request's context — HTTP, GraphQL, WebSocket, any transport, and whatever a
 * guard seeded in its place — it throws {@link UnscopedInRequestError} and `fn` does not run.
 */
export function runUnscoped<T>(fn: () => T): T {
  const ambient = storage.getStore();
  const current = ambient?.context;
  if (current && !current.unscoped) throw new UnscopedInRequestError(current.transport);
  return storage.run({ context: UNSCOPED, trace: ambient?.trace }, fn);
}

/**
 * Runs `fn` outside any request context, as work the server does for no caller (docs/behaviour.md
 * §5.9, §10): a job, a scheduled tick, an in-process listener. Such work starts here even when
 * what triggered it ran inside a request (a listener observes an event a request published), so it
 * never sees that caller's principal or ability, and it lifts the row scope only explicitly, with
 * {@link runUnscoped}. Used by the runtime's transports, not by application code.
 */
export function withoutCaller<T>(fn: () => T): T {
  const trace = storage.getStore()?.trace;
  return trace === undefined ? storage.exit(fn) : storage.run({ context: undefined, trace }, fn);
}

/** The ambient context, or {@link ANONYMOUS} outside any (which denies every scoped row). */
export function currentContext(): RequestContext {
  return storage.getStore()?.context ?? ANONYMOUS;
}

/**
 * Runs `call` — the method of a public operation, route, MCP tool or gateway message — as the
 * operation's own work (docs/behaviour.md §5.7): a public operation's value is not masked, so what
 * repositories read for it inside is scoped to the caller but left whole ({@link RequestContext.unmasked});
 * everything else is as in the request's context. Returns what `call` returns.
 */
export function runPublicOperation<T>(call: () => T): T {
  const context = currentContext();
  return context.unscoped ? call() : runInContext({ ...context, unmasked: true }, call);
}

/**
 * The active trace context (an OpenTelemetry `Context`, opaque here; docs/behaviour.md §12.3), or
 * undefined outside any. Read by ../observability/otel.ts only.
 */
export function activeTrace(): unknown {
  return storage.getStore()?.trace;
}

/**
 * Runs `fn` with `trace` as the active trace context, the request context unchanged; returns what
 * `fn` returns. Used by ../observability/otel.ts only.
 */
export function runInTrace<T>(trace: unknown, fn: () => T): T {
  return storage.run({ context: storage.getStore()?.context, trace }, fn);
}

/**
 * The calling principal (docs/behaviour.md §2.6). Throws a `FailureError` with `UNAUTHENTICATED` when none
 * was seeded, for example inside a public operation called without a token (docs/behaviour.md §5.7).
 */
export function currentPrincipal(): Principal {
  const principal = currentContext().principal;
  if (!principal) {
    throw new FailureError({
      code: 'UNAUTHENTICATED',
      message: 'this operation needs a signed-in caller: no principal was seeded (send Authorization: Bearer <token>)',
    });
  }
  return principal;
}
