/**
 * PostgreSQL (docs/decisions.md §2): production and scale-out, `APP_DATABASE__URL=postgres://…`, through
 * Prisma's pg driver adapter. Several processes and hosts may share it; subscription events travel
 * between them through `LISTEN/NOTIFY` (./postgresql-events.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { SqlConstraintError, SqlStatementError, type SqlRunner } from '../data/sql-runner.js';
import { type Sql, sqltag } from '../data/sql-scope.js';
import type { DialectSql } from '../data/sql-text.js';
import { NUL_TEXT_MESSAGE } from '../data/text-input.js';
import type { Dialect, DialectMigrations, EventRelayOptions, MigrationStatement, RunnerOptions, StartedEventRelay } from './dialect.js';
import { ENDED_ITS_TRANSACTION, MigrationScriptError, SCRIPT_SAVEPOINT, type ScriptOutcome } from './migration-script.js';
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

/** A server's error carries a SQLSTATE (`42P07`); an error without one is the connection's (`ECONNRESET`). */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Where {@link POSTGRESQL_MIGRATIONS}' `applyScript` was when a statement failed. */
type ScriptStep = 'script' | 'release' | 'record' | 'commit';

/**
 * What a failure at `step` left of the migration's transaction on `client`, checked: after the
 * script, rolling back to {@link SCRIPT_SAVEPOINT} works only in the transaction that began; a
 * release that fails means the script ended it; the record's failure, or the commit's, leaves
 * nothing (a failed `COMMIT` rolls back). Without the server's answer the outcome is unknown.
 */
async function failedStep(client: pg.PoolClient, step: ScriptStep, error: unknown): Promise<ScriptOutcome> {
  if (sqlState(error) === undefined) return 'unknown';
  if (step === 'release') return 'part-committed';
  if (step !== 'script') return 'rolled-back';
  try {
    await client.query(`ROLLBACK TO SAVEPOINT ${SCRIPT_SAVEPOINT}`);
    return 'rolled-back';
  } catch {
    return 'part-committed';
  }
}

/**
 * The lines {@link POSTGRESQL_MIGRATIONS}' `describeSchema` gives for the connection's current
 * schema: each column (type, `NOT NULL`, default), index, constraint and enum type as the catalog
 * prints them, the migrations table left out.
 */
const DESCRIBE_SCHEMA = `WITH schema AS (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
SELECT 'column ' || c.relname || '.' || a.attname || ': ' || format_type(a.atttypid, a.atttypmod)
    || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relnamespace = (SELECT oid FROM schema) AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped
    AND c.relname <> '_prisma_migrations'
UNION ALL
SELECT 'index ' || c.relname || ': ' || pg_get_indexdef(i.indexrelid)
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
  WHERE c.relnamespace = (SELECT oid FROM schema) AND t.relname <> '_prisma_migrations'
UNION ALL
SELECT 'constraint ' || t.relname || '.' || k.conname || ': ' || pg_get_constraintdef(k.oid)
  FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
  WHERE k.connamespace = (SELECT oid FROM schema) AND t.relname <> '_prisma_migrations'
UNION ALL
SELECT 'type ' || t.typname || ': ' || string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)
  FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
  WHERE t.typnamespace = (SELECT oid FROM schema) GROUP BY t.typname`;

/**
 * PostgreSQL migrations (docs/decisions.md §11): on one pooled connection, `BEGIN` (with a lock wait
 * of at most {@link MIGRATION_LOCK_TIMEOUT_MS} for each lock the migration takes) and the savepoint;
 * the whole script as one simple query; the savepoint released; the record; `COMMIT` — each its own
 * round trip, so a server whose client was killed mid-script finds the client gone before the
 * commit and rolls back, instead of committing changes nobody records. (The adapter's own
 * `executeScript` splits the script at every `;` — inside string literals too — and runs the pieces
 * on whatever pooled connection is free, outside any transaction.)
 */
const POSTGRESQL_MIGRATIONS: DialectMigrations = {
  // The engine's WebAssembly build cannot describe a live PostgreSQL schema through the pg adapter
  // ("Column type 'char' could not be deserialized", Prisma 7.10).
  describesLiveSchema: false,
  atomicity:
    'PostgreSQL: each migration runs in one transaction and rolls back whole when a statement fails; statements PostgreSQL refuses inside a transaction (`CREATE INDEX CONCURRENTLY`, `VACUUM`, `CREATE DATABASE`) cannot be part of a migration',
  async applyScript(connection: SqlDriverAdapter, script: string, record?: () => MigrationStatement): Promise<void> {
    const pool = (connection as unknown as { underlyingDriver?: () => pg.Pool }).underlyingDriver?.();
    if (typeof pool?.connect !== 'function')
      throw new Error('the pg adapter no longer exposes its pool; a migration cannot run in a transaction');
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      try {
        // A lock a long transaction holds (a running server's) fails the migration after the wait instead
        // of queueing it, and every query of the server behind it, for as long as that transaction lasts.
        await client.query(`BEGIN; SET LOCAL lock_timeout = '${MIGRATION_LOCK_TIMEOUT_MS}ms'; SAVEPOINT ${SCRIPT_SAVEPOINT}`);
      } catch (error) {
        // Nothing of the script ran.
        await client.query('ROLLBACK').catch(() => undefined);
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
      let step: ScriptStep = 'script';
      try {
        await client.query(script);
        step = 'release';
        await client.query(`RELEASE SAVEPOINT ${SCRIPT_SAVEPOINT}`);
        step = 'record';
        if (record) {
          const { sql, args } = record();
          await client.query(sql, [...args]);
        }
        step = 'commit';
        await client.query('COMMIT');
      } catch (error) {
        const outcome = await failedStep(client, step, error);
        await client.query('ROLLBACK').catch(() => undefined);
        if (outcome === 'unknown') broken = error instanceof Error ? error : new Error(String(error));
        const failure = error as pg.DatabaseError;
        const message =
          step === 'release'
            ? ENDED_ITS_TRANSACTION
            : outcome === 'part-committed'
              ? `${failure.message}; ${ENDED_ITS_TRANSACTION}`
              : failure.message;
        throw new MigrationScriptError(
          {
            kind: 'postgres',
            code: sqlState(error) ?? 'N/A',
            severity: failure.severity ?? 'N/A',
            message,
            detail: failure.detail,
            column: failure.column,
            hint: failure.hint,
          },
          outcome,
        );
      }
    } finally {
      // A connection that failed without the server's answer is not handed to anyone else.
      client.release(broken);
    }
  },
  async describeSchema(connection: SqlDriverAdapter): Promise<string[]> {
    const { rows } = await connection.queryRaw({ sql: DESCRIBE_SCHEMA, args: [], argTypes: [] });
    return rows.map(([line]) => String(line)).sort();
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
