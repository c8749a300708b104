/**
 * PostgreSQL (docs/decisions.md §2): production and scale-out, `APP_DATABASE__URL=postgres://…`, through
 * Prisma's pg driver adapter. Several processes and hosts may share it; subscription events travel
 * between them through `LISTEN/NOTIFY` (./postgresql-events.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { DriverAdapterError, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { SqlConstraintError, SqlStatementError, type SqlRunner } from '../data/sql-runner.js';
import { type Sql, sqltag } from '../data/sql-scope.js';
import type { DialectSql } from '../data/sql-text.js';
import { NUL_TEXT_MESSAGE } from '../data/text-input.js';
import type { Dialect, DialectMigrations, EventRelayOptions, RunnerOptions, StartedEventRelay } from './dialect.js';
import { doubleQuoted, likeWithBackslashEscape } from './standard-sql.js';

/** What a caller is told when PostgreSQL refuses a NUL in text (see `errors.inputCodes`). */
const NUL_REFUSED_MESSAGE = `a text ${NUL_TEXT_MESSAGE}`;

/** Statement texts whose names a runner remembers (the generated statements are a bounded set). */
const STATEMENT_NAME_CACHE_SIZE = 1_000;

/** PostgreSQL's limit on bound parameters per statement (the protocol counts them in 16 bits). */
const MAX_BIND_PARAMETERS = 65_535;

/**
 * PostgreSQL's SQL text (runtime/data/sql-text.ts): the standard's double-quoted identifiers;
 * `LIKE` with `ESCAPE '\'` written out (backslash is PostgreSQL's default escape, named so the
 * statement does not depend on it; `standard_conforming_strings`, on since 9.1, keeps `'\'` one
 * character); `$n` placeholders; key batches as one bound array; `FOR SHARE` on a write's checks.
 */
const POSTGRESQL_SQL: DialectSql = {
  maxBindParameters: MAX_BIND_PARAMETERS,
  identifier: doubleQuoted,
  textMatch: likeWithBackslashEscape,
  placeholder: (position) => `$${position}`,
  /**
   * `column = ANY($n)`, the keys bound as one array (its element type is the column's, inferred by
   * PostgreSQL): one statement text for any number of keys, and a generic plan that reads the key's
   * index alone — with `IN ($1, …, $20)` the plan intersected it with the scope's org index
   * (BENCHMARKS.md "Where the time goes").
   */
  anyOf: (column, keys) => sqltag`${column} = ANY(${[...keys]})`,
  referenceLock: 'FOR SHARE',
};

/** The runner's error for a pg failure: its SQLSTATE, its socket code, or a lost connection. */
function postgresStatementError(error: unknown): SqlStatementError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return new SqlStatementError(
    error instanceof Error ? error.message : String(error),
    typeof code === 'string' ? code : 'CONNECTION_LOST',
    { cause: error },
  );
}

/** The columns a constraint violation's detail names: `Key ("orgId", email)=(…) already exists.` → orgId, email. */
function detailColumns(detail: unknown): string[] {
  const match = typeof detail === 'string' ? /^Key \((.*?)\)=\(/.exec(detail) : null;
  return match?.[1] ? match[1].split(', ').map((column) => column.replace(/^"|"$/g, '')) : [];
}

/** A unique (23505) or foreign key (23503) violation as {@link SqlConstraintError}; anything else as a read error. */
function postgresWriteError(error: unknown): Error {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
  if (code === '23505') return new SqlConstraintError('unique', detailColumns(detail), { cause: error });
  if (code === '23503') return new SqlConstraintError('foreign-key', detailColumns(detail), { cause: error });
  return postgresStatementError(error);
}

/**
 * A small pg pool with named (server-side prepared) statements (`$n` placeholders); inserts run on
 * it too. Behind a transaction-mode pooler (`pooled`) its statements are unnamed: parsed anew each
 * time, since a name prepared on one server connection is unknown on the next (or already taken).
 */
class PostgresRunner implements SqlRunner {
  readonly sql = POSTGRESQL_SQL;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onQuery: ((sql: string) => void) | undefined,
    private readonly pooled: boolean,
  ) {
    // An idle connection lost during an outage must not crash the process; the next read reconnects.
    this.pool.on('error', () => undefined);
  }

  /** Statement names by text (hashing the text on every read was measurable: BENCHMARKS.md §"Where the time goes"). */
  private readonly names = new LRUCache<string, string>({ max: STATEMENT_NAME_CACHE_SIZE });

  async read(statement: Sql): Promise<Record<string, unknown>[]> {
    try {
      return await this.run(statement);
    } catch (error) {
      throw postgresStatementError(error);
    }
  }

  async insert(statement: Sql): Promise<Record<string, unknown>[]> {
    try {
      return await this.run(statement);
    } catch (error) {
      throw postgresWriteError(error);
    }
  }

  private async run(statement: Sql): Promise<Record<string, unknown>[]> {
    // `Sql.text` is built anew from the statement's parts on every read: read it once.
    const text = statement.text;
    this.onQuery?.(text);
    // A Date binds as UTC text: the column is `timestamp without time zone` holding UTC.
    const values = statement.values.map((value) => (value instanceof Date ? value.toISOString() : value));
    const result = await this.pool.query(this.pooled ? { text, values } : { name: this.nameOf(text), text, values });
    return result.rows as Record<string, unknown>[];
  }

  /** The name of `text`'s statement: prepared once per connection and reused by name afterwards. */
  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `rs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      this.names.set(text, name);
    }
    return name;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** How long a migration waits for a lock on what it changes (docs/decisions.md §11). */
const MIGRATION_LOCK_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL migrations (docs/decisions.md §11): the whole script is sent as one simple query
 * between `BEGIN` and `COMMIT` on one pooled connection, so it applies whole or not at all, waiting
 * at most {@link MIGRATION_LOCK_TIMEOUT_MS} for each lock it takes. (The
 * adapter's own `executeScript` splits the script at every `;` — inside string literals too — and
 * runs the pieces on whatever pooled connection is free, outside any transaction.)
 */
const POSTGRESQL_MIGRATIONS: DialectMigrations = {
  // The engine's WebAssembly build cannot describe a live PostgreSQL schema through the pg adapter
  // ("Column type 'char' could not be deserialized", Prisma 7.10).
  describesLiveSchema: false,
  atomicity:
    'PostgreSQL: each migration runs in one transaction and rolls back whole when a statement fails; statements PostgreSQL refuses inside a transaction (`CREATE INDEX CONCURRENTLY`, `VACUUM`, `CREATE DATABASE`) cannot be part of a migration',
  async applyScript(connection: SqlDriverAdapter, script: string): Promise<void> {
    const pool = (connection as unknown as { underlyingDriver?: () => pg.Pool }).underlyingDriver?.();
    if (typeof pool?.connect !== 'function')
      throw new Error('the pg adapter no longer exposes its pool; a migration cannot run in a transaction');
    const client = await pool.connect();
    try {
      // A lock a long transaction holds (a running server's) fails the migration after the wait instead
      // of queueing it, and every query of the server behind it, for as long as that transaction lasts.
      await client.query(`BEGIN;\nSET LOCAL lock_timeout = '${MIGRATION_LOCK_TIMEOUT_MS}ms';\n${script}\n;COMMIT;`);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      const failure = error as pg.DatabaseError;
      throw new DriverAdapterError({
        kind: 'postgres',
        code: failure.code ?? 'N/A',
        severity: failure.severity ?? 'N/A',
        message: failure.message,
        detail: failure.detail,
        column: failure.column,
        hint: failure.hint,
      });
    } finally {
      client.release();
    }
  },
};

/**
 * A connection to a new temporary database on the server of `url`, dropped when the connection is
 * disposed: the schema engine's shadow database, where it replays migrations (docs/decisions.md
 * §11). Needs the CREATEDB privilege. (The adapter's own shadow database keeps the URL's database
 * name — `connectionString` wins over `database` in `pg` — so it would replay into the real one.)
 */
async function connectToShadowDatabase(url: string): Promise<SqlDriverAdapter> {
  const { default: postgres } = await import('pg');
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const name = `prisma_migrate_shadow_db_${randomUUID().replace(/-/g, '')}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new postgres.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const shadowUrl = new URL(url);
  shadowUrl.pathname = `/${name}`;
  const adapter = await new PrismaPg({ connectionString: shadowUrl.toString() }).connect();
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await admin(`DROP DATABASE IF EXISTS "${name}"`);
  };
  return adapter;
}

/** The PostgreSQL dialect: shared by processes and hosts, events over LISTEN/NOTIFY (module docstring). */
export const POSTGRESQL: Dialect<'postgresql'> = {
  name: 'postgresql',
  title: 'PostgreSQL',
  schemes: ['postgres://', 'postgresql://'],
  urlForm: 'postgres://…',
  adapterProvider: 'postgres',
  adapterName: '@prisma/adapter-pg',
  // Keys as native uuid: 16 bytes, ordered byte-wise like the UUID v7 text.
  prisma: { datasource: { provider: 'postgresql' }, idColumnAttributes: ['@db.Uuid'], folder: 'prisma/postgresql' },
  workers: { allowed: true },
  errors: {
    // pg's error class (a server error with a SQLSTATE `code`).
    classNames: ['DatabaseError'],
    // Connection exceptions (class 08) and the server shutting down or starting (57P0x).
    unavailableCodes: ['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03'],
    // disk_full: the server could not extend a file (also a full WAL disk, which stops writes).
    fullCodes: ['53100'],
    // A NUL in a text value ("invalid byte sequence for encoding UTF8: 0x00", 22021), or escaped in a
    // JSON text (`\u0000`, 22P05): the transports refuse it first (docs/hostile-input.md §17); one that
    // still arrives — from a path they do not see — is the caller's bad text, not the server's fault.
    inputCodes: {
      '22021': NUL_REFUSED_MESSAGE,
      '22P05': NUL_REFUSED_MESSAGE,
    },
  },
  sql: POSTGRESQL_SQL,
  // Samples a bounded number of rows per table.
  statisticsStatement: 'ANALYZE',
  migrations: POSTGRESQL_MIGRATIONS,
  jobs: {
    durability:
      'pg-boss queues in the database (schema pgboss): durable, shared by every worker and host, retried with back-off, then dead-lettered',
    schedules: 'every process runs the schedule and claims each tick in resource_service.schedule_ticks: one process per tick runs it',
    async startQueues(options) {
      const { startPgBossQueues } = await import('./postgresql-jobs.js');
      return startPgBossQueues(options);
    },
    async startTickClaims(options) {
      const { startPostgresTickClaims } = await import('./postgresql-jobs.js');
      return startPostgresTickClaims(options);
    },
  },
  async createAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
    const { PrismaPg } = await import('@prisma/adapter-pg');
    const factory = new PrismaPg({ connectionString: url });
    // Typed as the adapter class; the engine needs only the driver adapter interface.
    factory.connectToShadowDb = () => connectToShadowDatabase(url) as ReturnType<typeof factory.connectToShadowDb>;
    return factory;
  },
  async createRunner(url: string, options: RunnerOptions = {}): Promise<SqlRunner> {
    const { default: postgres } = await import('pg');
    // `timestamp without time zone` (what Prisma's `DateTime` maps to) holds UTC: read it as UTC.
    const types: pg.CustomTypesConfig = {
      getTypeParser: (oid, format): unknown =>
        oid === postgres.types.builtins.TIMESTAMP && format !== 'binary'
          ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`)
          : postgres.types.getTypeParser(oid, format),
    };
    return new PostgresRunner(new postgres.Pool({ connectionString: url, max: 5, types }), options.onQuery, options.pooled === true);
  },
  async createEventRelay(options: EventRelayOptions): Promise<StartedEventRelay> {
    const { PostgresEventRelay } = await import('./postgresql-events.js');
    const relay = new PostgresEventRelay(options);
    await relay.start();
    return relay;
  },
};
