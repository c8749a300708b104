/** What every benchmarked server takes and gives (BENCHMARKS.md). */

/** How to start a server. */
export interface ServerOptions {
  /** The database to serve: `file:<path>` (SQLite) or `postgres://…`. */
  readonly databaseUrl: string;
  /** Port to listen on (0: any free one), always on 127.0.0.1. */
  readonly port: number;
  /** HS256 secret the bearer tokens are signed with. */
  readonly secret: string;
  /** Sees every SQL statement sent (statement counts); absent in timed runs. */
  readonly onQuery?: (sql: string) => void;
}

/** A listening server. */
export interface BenchServer {
  readonly url: string;
  close(): Promise<void>;
}
