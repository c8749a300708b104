/**
 * SQLite (docs/decisions.md §2): the embedded default, `APP_DATABASE__URL=file:./data/app.db`, through
 * Prisma's better-sqlite3 driver adapter in WAL mode. One process writes it: more than one worker
 * is refused at boot, and subscription events stay in the process (no event relay).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { SqlConstraintError, type SqlRunner } from '../data/sql-runner.js';
import { LocalTickClaims } from '../jobs/schedule.js';
import { type Sql, sqltag } from '../data/sql-scope.js';
import type { DialectSql, TextMatch } from '../data/sql-text.js';
import type { Dialect, DialectMigrations, MigrationStatement, RunnerOptions } from './dialect.js';
import { ENDED_ITS_TRANSACTION, MigrationScriptError, SCRIPT_SAVEPOINT, type ScriptOutcome } from './migration-script.js';
import { doubleQuoted } from './standard-sql.js';

/** The absolute path of a `file:` URL's SQLite database, resolved against `cwd`. */
export function sqliteFilePath(url: string, cwd = process.cwd()): string {
  return path.resolve(cwd, url.slice('file:'.length).replace(/\?.*$/, ''));
}

/**
 * How long a SQLite connection waits for a lock another connection holds before it gives up with
 * `SQLITE_BUSY`: the server's connections and the migrator's alike (docs/decisions.md §11).
 */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * Settings every SQLite connection gets when it opens: WAL journal (readers do not block the
 * writer; a crash loses no acknowledged write), `synchronous=NORMAL` (durable against process
 * crashes in WAL mode), foreign keys enforced, and a 5 s wait on a locked database.
 */
const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
  `busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
] as const;

/**
 * The writer connection of one adapter factory of {@link createAdapterFactory}: the Prisma client's
 * connection, which {@link SqliteRunner.insert} writes on too. `unclaimed` is an adapter opened for
 * the runner before the client connected; the client's next connect takes it, so client and runner
 * share one connection, and opening it starts nothing of the client (its query compiler loads when
 * it first queries: memory a server answering only reads and creates never needs, BENCHMARKS.md §"Where the time goes").
 * Every connect of the factory is taken for the client's: a factory whose client the runner writes
 * beside serves that client only (the server opens migrations and statistics on factories of their own).
 */
interface WriterSlot {
  connection?: BetterSqlite3.Database;
  unclaimed?: SqlDriverAdapter;
  /** The opening in flight, the runner's or the client's: the other waits for it ({@link exclusively}). */
  opening?: Promise<void>;
  /** Opens one more connection of the factory (the adapter's own connect, with the settings applied). */
  readonly open: () => Promise<SqlDriverAdapter>;
}

const writerSlots = new WeakMap<object, WriterSlot>();

/** The better-sqlite3 connection a Prisma adapter keeps as `client`; throws when it no longer does. */
function adapterConnection(adapter: SqlDriverAdapter): BetterSqlite3.Database {
  const connection = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
  if (typeof connection?.pragma !== 'function')
    throw new Error('the better-sqlite3 adapter no longer exposes its connection: SQLite settings, inserts and migrations need it');
  return connection;
}

/**
 * Runs `step` once no other step on `slot` is in flight, and makes later ones wait for it, so the
 * runner's opening and the client's connect never both open a connection. Resolves or rejects as
 * `step` does.
 */
async function exclusively<T>(slot: WriterSlot, step: () => Promise<T>): Promise<T> {
  while (slot.opening) await slot.opening;
  // Nothing awaits between the check above and claiming the slot here.
  const run = step();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  slot.opening = settled;
  try {
    return await run;
  } finally {
    if (slot.opening === settled) slot.opening = undefined;
  }
}

/**
 * The writer connection of `factory` (an adapter factory of {@link createAdapterFactory}): the
 * client's if it is connected, else one opened now and left for the client's next connect.
 * Undefined for a factory of no SQLite dialect.
 */
async function writerConnection(factory: object): Promise<BetterSqlite3.Database | undefined> {
  const slot = writerSlots.get(factory);
  if (!slot) return undefined;
  if (!slot.opening && slot.connection?.open) return slot.connection;
  return exclusively(slot, async () => {
    if (slot.connection?.open) return slot.connection;
    const adapter = await slot.open();
    slot.unclaimed = adapter;
    slot.connection = adapterConnection(adapter);
    return slot.connection;
  });
}

/** Closes the writer connection of `factory` if the runner opened it and the client never took it. */
async function releaseWriterConnection(factory: object): Promise<void> {
  const slot = writerSlots.get(factory);
  if (!slot) return;
  await exclusively(slot, async () => {
    const unclaimed = slot.unclaimed;
    if (!unclaimed) return;
    slot.unclaimed = undefined;
    slot.connection = undefined;
    await unclaimed.dispose();
  });
}

/**
 * The better-sqlite3 adapter factory of `url`: creates the database folder (the file is created
 * by the first connection) and applies {@link SQLITE_PRAGMAS} on the driver's own connection as
 * each one opens — not through a Prisma query, so nothing is loaded before the first request
 * needs it — and keeps it as the factory's writer connection ({@link WriterSlot}). Throws (on
 * connect) if the adapter stops exposing its connection.
 */
async function createAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const file = sqliteFilePath(url);
  mkdirSync(path.dirname(file), { recursive: true });
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  const factory = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: SQLITE_BUSY_TIMEOUT_MS });
  const connect = factory.connect.bind(factory);
  const slot: WriterSlot = {
    open: async () => {
      const adapter = await connect();
      for (const pragma of SQLITE_PRAGMAS) adapterConnection(adapter).pragma(pragma);
      return adapter;
    },
  };
  writerSlots.set(factory, slot);
  factory.connect = () =>
    exclusively(slot, async () => {
      // The runner's connection, opened before the client needed one: the client writes on it too.
      const unclaimed = slot.unclaimed;
      slot.unclaimed = undefined;
      if (unclaimed && slot.connection?.open) return unclaimed;
      const adapter = await slot.open();
      slot.connection = adapterConnection(adapter);
      return adapter;
    });
  return factory;
}

/**
 * An adapter on a private in-memory database, for work that needs the schema engine but no real
 * database (runtime/data/migrations.ts diffs two schemas of any database through it).
 */
export async function createScratchAdapterFactory(): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  return new PrismaBetterSqlite3({ url: ':memory:' });
}

/**
 * Pages a database must have room for to be answered as writable (`/health` says `db: full` below
 * it): 16, 64 KiB at the default page size — less than one ordinary write may need, its WAL frames
 * included, so a database this close to full refuses writes already or is about to.
 */
const ROOM_PAGES = 16;

/** Prepared statements kept per connection. */
const STATEMENT_CACHE_SIZE = 500;

/** SQLite's default limit on bound parameters per statement (SQLITE_MAX_VARIABLE_NUMBER). */
const MAX_BIND_PARAMETERS = 32_766;

/**
 * `column GLOB <pattern>`, the pattern bound as one parameter: `text` with GLOB's special characters
 * (`*`, `?`, `[`) each written as a one-character class (`[*]`), and `*` on the side(s) where `match`
 * allows anything. GLOB, not LIKE: SQLite's LIKE folds ASCII case, so `title LIKE 'alpha%'` holds
 * of "Alpha", where PostgreSQL's LIKE, CASL testing a rule on a row and JavaScript's string
 * operations do not — one case rule everywhere, case-sensitive (docs/behaviour.md §5.8). A prefix
 * GLOB uses an index on the column as a prefix LIKE would.
 */
function globMatch(column: Sql, match: TextMatch, text: string): Sql {
  const escaped = text.replace(/[*?[]/g, (character) => `[${character}]`);
  const pattern = match === 'contains' ? `*${escaped}*` : match === 'startsWith' ? `${escaped}*` : `*${escaped}`;
  return sqltag`${column} GLOB ${pattern}`;
}

/**
 * SQLite's SQL text (runtime/data/sql-text.ts): the standard's double-quoted identifiers; text
 * matches with `GLOB`, case-sensitive ({@link globMatch}); `?` placeholders; no row locks (one
 * writer at a time makes a check and its write atomic).
 */
const SQLITE_SQL: DialectSql = {
  maxBindParameters: MAX_BIND_PARAMETERS,
  identifier: doubleQuoted,
  textMatch: globMatch,
  placeholder: () => '?',
};

/**
 * The text of a read statement with each parameter written `+?` instead of `?` (docs/decisions.md §6,
 * "SQLite plans that do not depend on bound values"). better-sqlite3 is built with STAT4, and the
 * statistics the server gathers at boot hold STAT4 samples: the planner then estimates a constraint
 * on a bare `?` from the value bound, and marks the statement to be prepared again whenever that
 * parameter is bound — on every run, since every run binds. Unary `+` leaves the value, its type and
 * its (absent) affinity as they are and the constraint as usable by an index, but hides the value
 * from the estimate, so the plan is made once, from the statistics alone, as PostgreSQL's generic
 * plans are, and no run compiles the statement again (BENCHMARKS.md §"Where the time goes").
 */
export function planStableText(statement: Sql): string {
  return statement.strings.join('+?');
}

/** A bound value as SQLite stores what Prisma writes: booleans as 0/1, dates as ISO text. */
function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  return value;
}

/** A constraint violation of better-sqlite3 as {@link SqlConstraintError}; anything else as it was. */
function sqliteWriteError(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // "UNIQUE constraint failed: User.orgId, User.email"
    const fields = (message.split('constraint failed: ')[1] ?? '').split(', ').flatMap((column) => column.split('.').pop() || []);
    return new SqlConstraintError('unique', fields, { cause: error });
  }
  // SQLite does not say which key ("FOREIGN KEY constraint failed").
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new SqlConstraintError('foreign-key', [], { cause: error });
  return error;
}

/**
 * A second better-sqlite3 connection to the same file, `query_only` (WAL: it reads the latest
 * committed state and never blocks the writer), with statements prepared once (reads with `+?` placeholders: {@link planStableText});
 * inserts go through the Prisma client's own connection (`writesThrough`), where SQLite's one writer is.
 */
class SqliteRunner implements SqlRunner {
  readonly sql = SQLITE_SQL;
  private readonly statements = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENT_CACHE_SIZE });
  /** Insert statements prepared on the writer connection they were prepared on. */
  private readonly writes = new WeakMap<BetterSqlite3.Database, LRUCache<string, BetterSqlite3.Statement>>();

  constructor(
    private readonly connection: BetterSqlite3.Database,
    private readonly onQuery: ((sql: string) => void) | undefined,
    private readonly writesThrough: object | undefined,
    /** The database file (its folder's file system is where it grows). */
    private readonly file: string,
  ) {
    for (const pragma of SQLITE_PRAGMAS) this.connection.pragma(pragma);
    this.connection.pragma('query_only = ON');
  }

  read(statement: Sql): Promise<Record<string, unknown>[]> {
    return Promise.resolve(this.run(this.connection, this.statements, planStableText(statement), statement.values));
  }

  /** Runs `text` with `values` on `connection`, prepared once in `statements`; its rows. Driver errors propagate. */
  private run(
    connection: BetterSqlite3.Database,
    statements: LRUCache<string, BetterSqlite3.Statement>,
    text: string,
    values: readonly unknown[],
  ): Record<string, unknown>[] {
    let prepared = statements.get(text);
    if (!prepared) {
      prepared = connection.prepare(text);
      statements.set(text, prepared);
    }
    this.onQuery?.(text);
    return prepared.all(...values.map(sqliteValue)) as Record<string, unknown>[];
  }

  async insert(statement: Sql): Promise<Record<string, unknown>[] | undefined> {
    // Closed, it opens nothing more (a request outliving the shutdown's wait).
    if (!this.connection.open) throw new Error('the SQLite runner is closed');
    // Writing on a connection of its own could wait (synchronously, up to the busy timeout) on a
    // transaction the client holds open across awaits; on the client's connection it does not wait,
    // and, like the client's own statements outside that transaction, it joins it: the client's
    // `$transaction` would take this row with it on a rollback (the runtime opens none).
    const connection = this.writesThrough === undefined ? undefined : await writerConnection(this.writesThrough);
    if (!connection) return undefined;
    let statements = this.writes.get(connection);
    if (!statements) {
      statements = new LRUCache({ max: STATEMENT_CACHE_SIZE });
      this.writes.set(connection, statements);
    }
    try {
      return this.run(connection, statements, statement.sql, statement.values);
    } catch (error) {
      throw sqliteWriteError(error);
    }
  }

  /**
   * Whether the database has room for {@link ROOM_PAGES} more pages (`/health`, docs/behaviour.md §7):
   * within the file's page limit (`PRAGMA max_page_count`, counting the free pages inside it) on the
   * writer connection, where the limit that writes meet is set, and on the file system holding it
   * (the file and its WAL grow there). True when it cannot tell: whether the database answers at all
   * is the health check's other question.
   */
  async roomToWrite(): Promise<boolean> {
    try {
      const connection = (this.writesThrough === undefined ? undefined : await writerConnection(this.writesThrough)) ?? this.connection;
      const count = (pragma: string): number => Number(connection.pragma(pragma, { simple: true }));
      const pageSize = count('page_size');
      const pagesLeft = count('max_page_count') - count('page_count') + count('freelist_count');
      if (pagesLeft < ROOM_PAGES) return false;
      const disk = await statfs(path.dirname(this.file));
      return disk.bavail * disk.bsize >= ROOM_PAGES * pageSize;
    } catch {
      return true;
    }
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.connection.close();
    if (this.writesThrough !== undefined) await releaseWriterConnection(this.writesThrough);
  }
}

/** SQLITE_CONSTRAINT_FOREIGNKEY, the extended code of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = 787;

/** SQLITE_ERROR, the code of a script's own failure as the adapter reports it. */
const SQLITE_ERROR = 1;

/**
 * The errors after which SQLite has rolled the whole transaction back itself ("Response To Errors
 * Within A Transaction", sqlite.org/lang_transaction.html): such a failure leaves no transaction open
 * and yet nothing committed.
 */
const ROLLS_BACK_ITSELF = /^SQLITE_(?:FULL|IOERR|BUSY|NOMEM|INTERRUPT)/;

/**
 * What a script's failure left (the transaction begun by {@link applyInTransaction} still open, or
 * not), checked: the transaction still holding {@link SCRIPT_SAVEPOINT} is the one that began, and
 * rolling back to it undoes the whole script; without it the script ended the transaction itself.
 */
function scriptFailure(database: BetterSqlite3.Database, error: unknown): MigrationScriptError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  let outcome: ScriptOutcome;
  if (!database.inTransaction) outcome = typeof code === 'string' && ROLLS_BACK_ITSELF.test(code) ? 'rolled-back' : 'part-committed';
  else {
    try {
      database.exec(`ROLLBACK TO SAVEPOINT ${SCRIPT_SAVEPOINT}`);
      outcome = 'rolled-back';
    } catch {
      outcome = 'part-committed';
    }
  }
  // As the driver said it ("NOT NULL constraint failed: new_Post.slug"): the adapter's own
  // conversion keeps only a kind ("NullConstraintViolation") for some errors.
  const said = outcome === 'part-committed' ? `${message}; ${ENDED_ITS_TRANSACTION}` : message;
  return new MigrationScriptError({ kind: 'sqlite', extendedCode: SQLITE_ERROR, message: said }, outcome);
}

/**
 * {@link SQLITE_MIGRATIONS}' `applyScript` on the driver's connection: `BEGIN IMMEDIATE`, the
 * savepoint, the script, the savepoint released, `PRAGMA foreign_key_check`, the record, `COMMIT`.
 * Throws a {@link MigrationScriptError} after rolling back, or the driver's error when `BEGIN` fails
 * (nothing ran: a busy timeout there is the lock refusal `migrate deploy` names).
 */
function applyInTransaction(database: BetterSqlite3.Database, script: string, record?: () => MigrationStatement): void {
  const foreignKeys = database.pragma('foreign_keys', { simple: true }) === 1;
  database.pragma('foreign_keys = OFF');
  try {
    database.exec('BEGIN IMMEDIATE');
    try {
      database.exec(`SAVEPOINT ${SCRIPT_SAVEPOINT}`);
      try {
        database.exec(script);
      } catch (error) {
        throw scriptFailure(database, error);
      }
      try {
        database.exec(`RELEASE SAVEPOINT ${SCRIPT_SAVEPOINT}`);
      } catch {
        throw new MigrationScriptError({ kind: 'sqlite', extendedCode: SQLITE_ERROR, message: ENDED_ITS_TRANSACTION }, 'part-committed');
      }
      const violations = database.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
      const first = violations[0];
      if (first) {
        throw new MigrationScriptError(
          {
            kind: 'sqlite',
            extendedCode: FOREIGN_KEY_VIOLATION,
            message: `FOREIGN KEY constraint failed: ${violations.length} row(s) of ${first.table} refer to a missing ${first.parent} (first: rowid ${first.rowid})`,
          },
          'rolled-back',
        );
      }
      if (record) {
        const { sql, args } = record();
        database.prepare(sql).run(...args);
      }
      database.exec('COMMIT');
    } catch (error) {
      if (database.inTransaction) database.exec('ROLLBACK');
      if (error instanceof MigrationScriptError) throw error;
      // The record or the commit failed: the transaction was still the migration's, and is rolled back.
      const message = error instanceof Error ? error.message : String(error);
      throw new MigrationScriptError({ kind: 'sqlite', extendedCode: SQLITE_ERROR, message }, 'rolled-back');
    }
  } finally {
    if (foreignKeys) database.pragma('foreign_keys = ON');
  }
}

/**
 * The lines {@link SQLITE_MIGRATIONS}' `describeSchema` gives: each table, index, view and trigger
 * with its `CREATE` statement as SQLite keeps it (a column added by `ALTER TABLE` is in its table's),
 * SQLite's own objects and the migrations table left out.
 */
const DESCRIBE_SCHEMA = `SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND tbl_name <> '_prisma_migrations' ORDER BY 1`;

/**
 * SQLite migrations (docs/decisions.md §11). Every statement of a migration, table redefinitions
 * included, runs in one `BEGIN IMMEDIATE` … `COMMIT`. Foreign keys are switched off around it
 * (SQLite ignores that switch inside a transaction: the `PRAGMA foreign_keys` lines Prisma writes
 * into a redefinition do nothing there), so dropping a table to redefine it never cascades, and
 * `PRAGMA foreign_key_check` must find no violation before the commit. The copy before a deploy is
 * `VACUUM INTO`, a consistent snapshot even while a server writes.
 */
const SQLITE_MIGRATIONS: DialectMigrations = {
  describesLiveSchema: true,
  // The engine asks SQLite for exclusive locking mode, which no connection of a running server may
  // share: every deploy beside one timed out. Left in normal mode, a migration's `BEGIN IMMEDIATE`
  // takes the write lock within the busy timeout, as any writer does.
  engineStatementsIgnored: /^\s*PRAGMA\s+(?:main\.)?locking_mode\s*=\s*EXCLUSIVE\s*;?\s*$/i,
  // The adapter reports a busy timeout as a `SocketTimeout` (a kind the engine cannot read), or as `SQLITE_BUSY`.
  lockRefusal: { pattern: /`SocketTimeout`|SQLITE_BUSY|database is locked/, waitMs: SQLITE_BUSY_TIMEOUT_MS },
  atomicity:
    'SQLite: each migration runs in one transaction and rolls back whole when a statement fails; `PRAGMA` lines in a migration have no effect inside it, and `VACUUM` cannot run in one',
  applyScript(connection: SqlDriverAdapter, script: string, record?: () => MigrationStatement): Promise<void> {
    // The executor's throw becomes the rejection.
    return new Promise((resolve) => {
      applyInTransaction(adapterConnection(connection), script, record);
      resolve();
    });
  },
  async describeSchema(connection: SqlDriverAdapter): Promise<string[]> {
    const { rows } = await connection.queryRaw({ sql: DESCRIBE_SCHEMA, args: [], argTypes: [] });
    return rows.map(([line]) => String(line));
  },
  async backup(url: string, target: string): Promise<void> {
    const { default: Sqlite } = await import('better-sqlite3');
    const database = new Sqlite(sqliteFilePath(url), { fileMustExist: true, timeout: 5_000 });
    try {
      database.prepare('VACUUM INTO ?').run(target);
    } finally {
      database.close();
    }
  },
};

/** The SQLite dialect: the embedded default, one process (module docstring). */
export const SQLITE: Dialect<'sqlite'> = {
  name: 'sqlite',
  title: 'SQLite',
  schemes: ['file:'],
  urlForm: 'file:<path>',
  adapterProvider: 'sqlite',
  adapterName: '@prisma/adapter-better-sqlite3',
  prisma: { datasource: { provider: 'sqlite' }, idColumnAttributes: [], folder: 'prisma/sqlite' },
  workers: {
    allowed: false,
    reason: 'SQLite is one writer in one process, and subscription events would stay in the worker that published them',
  },
  errors: {
    // better-sqlite3's error class; its codes all start with SQLITE_.
    classNames: ['SqliteError'],
    unavailableCodes: ['SQLITE_BUSY', 'SQLITE_CANTOPEN'],
    codePrefix: 'SQLITE_',
    // The disk is full, or the file reached its size limit (`PRAGMA max_page_count`).
    fullCodes: ['SQLITE_FULL'],
    // SQLite stores any text, NUL included; the transports refuse one before it gets here.
  },
  sql: SQLITE_SQL,
  // An exact ANALYZE on each table that was never analyzed, has an index without statistics (a
  // migration just added it) or grew or shrank 25-fold since it was; bit 0x10000 makes it look at
  // every table, since a fresh connection has used none and plain `PRAGMA optimize` would then
  // skip a table that grew.
  statisticsStatement: 'PRAGMA optimize=0x10002',
  jobs: {
    durability:
      'an in-process queue (SQLite is one process): retried with back-off, then dead-lettered in memory; not durable, jobs waiting or running when the process stops are lost',
    schedules: 'the one process runs each tick',
    async startQueues(options) {
      const { startInProcessQueues } = await import('../jobs/in-process.js');
      return startInProcessQueues(options);
    },
    startTickClaims() {
      return Promise.resolve(new LocalTickClaims());
    },
  },
  migrations: SQLITE_MIGRATIONS,
  databaseFiles(url: string): string[] {
    const file = sqliteFilePath(url);
    return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`].filter((candidate) => existsSync(candidate));
  },
  fileUrl: (file: string) => `file:${file}`,
  createAdapterFactory,
  async createRunner(url: string, options: RunnerOptions = {}): Promise<SqlRunner> {
    const { default: Sqlite } = await import('better-sqlite3');
    const file = sqliteFilePath(url);
    return new SqliteRunner(new Sqlite(file, { timeout: 5_000 }), options.onQuery, options.writesThrough, file);
  },
};
