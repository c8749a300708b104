/**
 * PostgreSQL (docs/decisions.md §2): production and scale-out, `APP_DATABASE__URL=postgres://…`, through
 * Prisma's pg driver adapter. Several processes and hosts may share it; subscription events travel
 * between them through `LISTEN/NOTIFY` (./postgresql-events.ts).
 */
import { createHash } from 'node:crypto';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { SqlReadError, type SqlReader } from '../data/sql-reader.js';
import type { Sql } from '../data/sql-scope.js';
import type { Dialect, EventTransportOptions, ReaderOptions, StartedEventTransport } from './dialect.js';

/** PostgreSQL's limit on bound parameters per statement (the protocol counts them in 16 bits). */
const MAX_BIND_PARAMETERS = 65_535;


/** The reader error of a pg failure: its SQLSTATE, its socket code, or a lost connection. */
function postgresReadError(error: unknown): SqlReadError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return new SqlReadError(error instanceof Error ? error.message : String(error), typeof code === 'string' ? code : 'CONNECTION_LOST', { cause: error });
}

/** A small pg pool with named (server-side prepared) statements (`$n` placeholders). */
class PostgresReader implements SqlReader {
  readonly maxBindParameters = MAX_BIND_PARAMETERS;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onQuery: ((sql: string) => void) | undefined,
  ) {
    // An idle connection lost during an outage must not crash the process; the next read reconnects.
    this.pool.on('error', () => undefined);
  }

  async read(statement: Sql): Promise<Record<string, unknown>[]> {
    // A named statement is prepared once per connection and reused by name afterwards.
    const name = `rs_${createHash('sha1').update(statement.text).digest('hex').slice(0, 20)}`;
    this.onQuery?.(statement.text);
    // A Date binds as UTC text: the column is `timestamp without time zone` holding UTC.
    const values = statement.values.map((value) => (value instanceof Date ? value.toISOString() : value));
    try {
      const result = await this.pool.query({ name, text: statement.text, values });
      return result.rows as Record<string, unknown>[];
    } catch (error) {
      throw postgresReadError(error);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
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
  exclusiveMigrations: false,
  errors: {
    // pg's error class (a server error with a SQLSTATE `code`).
    classNames: ['DatabaseError'],
    // Connection exceptions (class 08) and the server shutting down or starting (57P0x).
    unavailableCodes: ['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03'],
  },
  sql: { maxBindParameters: MAX_BIND_PARAMETERS },
  // Samples a bounded number of rows per table.
  statisticsStatement: 'ANALYZE',
  jobs: {
    durability: 'pg-boss queues in the database (schema pgboss): durable, shared by every worker and host, retried with back-off, then dead-lettered',
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
    return new PrismaPg({ connectionString: url });
  },
  async createReader(url: string, options: ReaderOptions = {}): Promise<SqlReader> {
    const { default: postgres } = await import('pg');
    // `timestamp without time zone` (what Prisma's `DateTime` maps to) holds UTC: read it as UTC.
    const types: pg.CustomTypesConfig = {
      getTypeParser: (oid, format): unknown =>
        oid === postgres.types.builtins.TIMESTAMP && format !== 'binary' ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`) : postgres.types.getTypeParser(oid, format),
    };
    return new PostgresReader(new postgres.Pool({ connectionString: url, max: 5, types }), options.onQuery);
  },
  async createEventTransport(options: EventTransportOptions): Promise<StartedEventTransport> {
    const { PostgresEventTransport } = await import('./postgresql-events.js');
    const transport = new PostgresEventTransport(options);
    await transport.start();
    return transport;
  },
};
