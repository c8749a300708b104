/**
 * Load generation for the benchmark (BENCHMARKS.md): autocannon, programmatic, against one server for a
 * fixed duration; the figures a run reports.
 */
import autocannon from 'autocannon';

/** One request autocannon cycles through. */
export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A fresh body per request (the writes of the write mix). */
  readonly makeBody?: () => string;
  /** A fresh path per request (lookups of varying ids); `path` is used when absent. */
  readonly makePath?: () => string;
  /** Sees each answer's status and body (the soak records acknowledged writes). */
  readonly onResponse?: (status: number, body: string) => void;
}

/** What one timed run measured. */
export interface LoadResult {
  /** Mean requests per second over the run. */
  readonly requestsPerSecond: number;
  /** Latency percentiles, milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly requests: number;
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  /** Requests per second over all connections (open loop); unset: each connection sends as fast as answers come. */
  readonly rate?: number;
  /** Stops the run early (the figures cover what ran). */
  readonly signal?: AbortSignal;
}

/** Runs `requests` (cycled per connection) against `url` for `seconds`. */
export async function runLoad(
  url: string,
  requests: readonly LoadRequest[],
  seconds: number,
  connections: number,
  options: LoadOptions = {},
): Promise<LoadResult> {
  // Without a callback autocannon returns its instance made thenable (lib/init.js); the types say Promise only.
  const run = autocannon({
    url,
    connections,
    duration: seconds,
    ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
    pipelining: 1,
    timeout: 10,
    requests: requests.map((request) => ({
      method: request.method,
      path: request.path,
      headers: { ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.makeBody || request.makePath
        ? {
            setupRequest: (prepared: autocannon.Request) => ({
              ...prepared,
              ...(request.makeBody ? { body: request.makeBody() } : {}),
              ...(request.makePath ? { path: request.makePath() } : {}),
            }),
          }
        : {}),
      ...(request.onResponse ? { onResponse: request.onResponse } : {}),
    })),
  }) as Promise<autocannon.Result> & Pick<autocannon.Instance, 'stop'>;
  options.signal?.addEventListener('abort', () => run.stop(), { once: true });
  const result = await run;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total,
  };
}
