/**
 * What the runtime (and the generator) needs to know about one database (docs/architecture.md §3; modelled
 * on Kysely's Dialect): one {@link Dialect} per database in this folder, chosen by the URL's scheme
 * (runtime/dialects/index.ts). Nothing outside this folder names a database or tests which one it
 * runs on; it asks the dialect.
 *
 * The SQL the runtime writes itself (runtime/data/repository.ts, runtime/data/sql-scope.ts,
 * runtime/data/sql-insert.ts: the primary-key batch, the has_many window `ROW_NUMBER() OVER
 * (PARTITION BY fk ORDER BY id)`, scope conditions, a create's insert) is one text for every
 * dialect except where it asks the dialect's {@link DialectSql}: quoted identifiers, text matches
 * (`LIKE … ESCAPE`), placeholders, key batches, row locks. The rest differs in the dialect's runner
 * — placeholders of its statements (Prisma's `Sql` renders `?` as `sql` and `$n` as `text`), how
 * values bind (SQLite stores booleans as 0/1 and dates as ISO text) and how rows come back.
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Logger } from 'pino';
import type { EventBus } from '../events/bus.js';
import type { SqlRunner } from '../data/sql-runner.js';
import type { DialectSql } from '../data/sql-text.js';
import type { QueueBackend, QueueBackendOptions } from '../jobs/queue.js';
import type { TickClaimOptions, TickClaims } from '../jobs/schedule.js';

/** Options of {@link Dialect.createRunner}. */
export interface RunnerOptions {
  /** Sees the text of every statement the runner sends (tests, benchmarks). */
  readonly onQuery?: (sql: string) => void;
  /**
   * The adapter factory of the Prisma client beside the runner (the one {@link Dialect.createAdapterFactory}
   * returned): where a database has one writer connection (SQLite), the runner's inserts go through
   * the connection that factory opened. Without it such a runner inserts nothing.
   */
  readonly writesThrough?: SqlDriverAdapterFactory;
  /**
   * The URL reaches the database through a transaction-mode pooler (`APP_DATABASE__DIRECT_URL` set
   * to another address; docs/guide/deployment.md "A connection pooler"): the runner keeps no state
   * on a connection between statements — no named prepared statements, which another client's
   * transaction would find on its server connection, or miss on the next.
   */
  readonly pooled?: boolean;
}

/** What a cross-process event relay is started with (docs/decisions.md §4 "Subscriptions"). */
export interface EventRelayOptions {
  /** The database reached directly (`APP_DATABASE__DIRECT_URL`): `LISTEN` needs a session of its own. */
  readonly url: string;
  /** The bus it attaches to: publishes go through the relay, received events to {@link EventBus.deliver}. */
  readonly bus: EventBus;
  /** The entity each topic carries (`postPublished` → `Post`), from the declared subscriptions. */
  readonly topicEntities: Readonly<Record<string, string>>;
  /** Milliseconds events are kept for a process that lost its connection to catch up (`APP_GRAPHQL__EVENT_REPLAY_WINDOW`). */
  readonly replayWindow: number;
  /** Loads a row by id, unscoped (the receiving side of an entity event). */
  readonly load: (entity: string, id: string) => Promise<object | null>;
  readonly logger: Logger;
}

/** A started event relay, closed at shutdown before the database. */
export interface StartedEventRelay {
  /** Stops listening and closes its connections. */
  close(): Promise<void>;
}

/**
 * How the database's errors are told apart (runtime/failures/errors.ts; docs/behaviour.md §7).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DialectErrors {
  /** Names of the driver's error classes: an error of one of them is a database error (`database error`). */
  readonly classNames: readonly string[];
  /** Codes meaning the database cannot be reached now (REST 503): connection failures, a busy or missing file. */
  readonly unavailableCodes: readonly string[];
  /** A prefix marking the driver's own codes on an error of any class (`SQLITE_`), if its codes have one. */
  readonly codePrefix?: string;
  /**
   * Codes meaning the database has no room to write — a full disk, or a file at its size limit
   * (`SQLITE_FULL`, PostgreSQL's 53100): REST 503 and `the database has no room to write`, not a 500.
   */
  readonly fullCodes: readonly string[];
  /**
   * Codes of the database refusing a value the caller sent, with what the caller is told: the
   * caller's `BAD_USER_INPUT`, never a fault of the server's (PostgreSQL refusing a NUL in text,
   * docs/hostile-input.md §17). Absent where the database refuses none the transports let through.
   */
  readonly inputCodes?: Readonly<Record<string, string>>;
}

/**
 * The Prisma side of a database: what `generate` writes for it (generator/emit/prisma/).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DialectPrisma {
  /** The datasource block's settings (`provider = "sqlite"`), in order; `provider` is also migration_lock.toml's. */
  readonly datasource: Readonly<{ provider: string } & Record<string, string>>;
  /** Attributes added to every column of type `ID` (PostgreSQL: `@db.Uuid`, a native 16-byte uuid). */
  readonly idColumnAttributes: readonly string[];
  /** Folder of its `schema.prisma`, `client/` and `migrations/`, relative to the output folder (`prisma/sqlite`). */
  readonly folder: string;
}

/**
 * Where a database keeps jobs and how its scheduled tasks fire once per tick (docs/behaviour.md §10.1,
 * §10.2; docs/decisions.md §8). Loaded only by a server that declares processors or scheduled tasks.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DialectJobs {
  /** What the boot log and docs/guide/jobs.md say about where jobs are kept and how durable they are. */
  readonly durability: string;
  /** How a scheduled task fires once per tick, for the boot log. */
  readonly schedules: string;
  /** Starts the job storage (creating what it needs in the database). */
  startQueues(options: QueueBackendOptions): Promise<QueueBackend>;
  /** Starts the tick claims of scheduled tasks (runtime/jobs/schedule.ts). */
  startTickClaims(options: TickClaimOptions): Promise<TickClaims>;
}

/** One statement and its arguments, in the dialect's placeholders, run by the driver itself. */
export interface MigrationStatement {
  readonly sql: string;
  readonly args: readonly (string | number)[];
}

/**
 * How a database applies one migration and keeps a copy before applying any (docs/decisions.md §11).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DialectMigrations {
  /**
   * Whether the schema engine can describe a live database of this kind, so `migrate status` can
   * compare it with what its applied migrations create (schema drift).
   */
  readonly describesLiveSchema: boolean;
  /** What rolls back when a migration fails, in the words `migrate deploy` and docs/guide/migrations.md use. */
  readonly atomicity: string;
  /**
   * Statements the schema engine sends that must not reach this database on its connections (they
   * are answered as having run); absent: every statement reaches it.
   */
  readonly engineStatementsIgnored?: RegExp;
  /**
   * How the engine's failure to take this database's write lock within `waitMs` shows in its error
   * message (`pattern`), so `migrate deploy` says the database is locked and nothing was applied;
   * absent where a lock wait fails the migration's script itself (`applyScript`).
   */
  readonly lockRefusal?: { readonly pattern: RegExp; readonly waitMs: number };
  /**
   * Runs one migration's `script` on `connection` (one the schema engine opened), then the
   * statement `record()` returns (the migration's row in `_prisma_migrations`, made once the script
   * has run, so its time is the finish), as one transaction: all of it, or — when a statement fails
   * — none of it, so a process killed at any point leaves the migration either applied and recorded
   * or neither (docs/decisions.md §11). Before the script it sets the savepoint `SCRIPT_SAVEPOINT`,
   * which tells a script that ended the transaction itself (runtime/dialects/migration-script.ts).
   * Rejects with a `MigrationScriptError` (a `DriverAdapterError`, whose message the engine reads)
   * saying how the failure left the database, after rolling back; with the driver's own error when
   * the transaction could not begin (nothing ran).
   */
  applyScript(connection: SqlDriverAdapter, script: string, record?: () => MigrationStatement): Promise<void>;
  /**
   * One line per object of the schema `connection` is on — table, column, index, constraint, type —
   * in a form that compares between two databases, sorted, the migrations table left out: what
   * `migrate status` and `migrate deploy` compare to tell whether a failed migration's changes are
   * in the database (docs/decisions.md §11). Rejects with the driver's error.
   */
  describeSchema(connection: SqlDriverAdapter): Promise<string[]>;
  /**
   * Writes a consistent copy of the database at `url` to the new file `target` while others may
   * be using it; absent for a database on a server (its operators back it up). Rejects with the
   * driver's error.
   */
  backup?(url: string, target: string): Promise<void>;
}

/** One database behind one interface: URL, Prisma adapter and schema, SQL runner, errors, events, SQL text. */
export interface Dialect<Name extends string = string> {
  /** The database's name in configuration, logs and folders (`sqlite`, `postgresql`). */
  readonly name: Name;
  /** How people write it (`PostgreSQL`). */
  readonly title: string;
  /** URL prefixes selecting it (`file:`; `postgres://`, `postgresql://`). */
  readonly schemes: readonly string[];
  /** Its URL as messages show it (`file:<path>`, `postgres://…`). */
  readonly urlForm: string;
  /** `provider` of its Prisma driver adapter (`SqlDriverAdapterFactory.provider`: `sqlite`, `postgres`); the generated client is picked by it. */
  readonly adapterProvider: string;
  /**
   * `adapterName` of its Prisma driver adapter (`@prisma/adapter-pg`): which dialect an adapter
   * belongs to (two dialects may share a provider, as libSQL would SQLite's).
   */
  readonly adapterName: string;
  readonly prisma: DialectPrisma;
  /** Whether several processes may serve one database (`APP_HTTP__WORKERS` > 1, several hosts), and when not, why. */
  readonly workers: { readonly allowed: true } | { readonly allowed: false; readonly reason: string };
  readonly errors: DialectErrors;
  readonly sql: DialectSql;
  /** What brings the query planner's statistics up to date after migrations and seeds (docs/decisions.md §6). */
  readonly statisticsStatement: string;
  /** Job queues and scheduled tasks on this database. */
  readonly jobs: DialectJobs;
  /** How migrations are applied and backed up. */
  readonly migrations: DialectMigrations;
  /**
   * The files holding the database at `url` when it lives in a file of its own (SQLite: the file
   * and its `-wal`, `-shm`, `-journal` companions), existing ones only; `init --reset` removes them.
   * Absent for a database on a server, which the tools never drop.
   */
  databaseFiles?(url: string): string[];
  /**
   * The URL of a database of this kind kept in the file `file` (SQLite: `file:<path>`); absent for
   * a database on a server. The embedded default database is the first dialect's that has it.
   */
  fileUrl?(file: string): string;
  /**
   * The Prisma driver adapter factory of `url` (migrations and the generated client use it). Loads
   * the driver on demand: a server on one database never loads another's.
   */
  createAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory>;
  /** The runtime's own SQL runner on `url` (runtime/data/sql-runner.ts), beside the Prisma client. */
  createRunner(url: string, options?: RunnerOptions): Promise<SqlRunner>;
  /**
   * Starts the relay carrying events between processes and attaches it to the bus; absent when
   * events stay in the process (SQLite, one process by design).
   */
  createEventRelay?(options: EventRelayOptions): Promise<StartedEventRelay>;
}
