/**
 * The dialect seam (runtime/dialects/, docs/architecture.md §3), one table for every database: the URL picks
 * the dialect, the committed Prisma output of each database agrees with what its dialect says
 * (`generate` will read it from there), its adapter is the one the generated client expects, its
 * errors are classified, and its SQL runner's batches stay within its parameter limit.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAdapterFactory } from '../../runtime/data/database.js';
import {
  DIALECTS,
  dialectFor,
  dialectNamed,
  dialectOfAdapter,
  SUPPORTED_DATABASES,
  SUPPORTED_URL_FORMS,
} from '../../runtime/dialects/index.js';
import { classifyError } from '../../runtime/failures/errors.js';
import { keysPerStatement, MAX_KEYS_PER_STATEMENT } from '../../runtime/data/repository.js';
import { Observability } from '../../runtime/observability/index.js';
import { loadConfig } from '../../runtime/server/config.js';
import { createLogger } from '../../runtime/server/logger.js';
import { ROOT, scratchDir } from '../support/project.js';

/** A URL of each database that no test connects to. */
const EXAMPLE_URLS: Readonly<Record<string, readonly string[]>> = {
  sqlite: ['file:./data/app.db', 'file:/srv/app.db?mode=rwc'],
  postgresql: ['postgres://user:secret@127.0.0.1:1/app', 'postgresql://127.0.0.1:1/app'],
};

describe.each(DIALECTS.map((dialect) => [dialect.name, dialect] as const))('the %s dialect', (name, dialect) => {
  it('is chosen by each of its URL schemes', () => {
    for (const url of EXAMPLE_URLS[name] ?? []) expect(dialectFor(url).name).toBe(name);
    expect(dialectNamed(name)).toBe(dialect);
  });

  it('describes the committed Prisma schema, migrations and client of its database', () => {
    const folder = path.join(ROOT, 'generated', dialect.prisma.folder);
    const schema = readFileSync(path.join(folder, 'schema.prisma'), 'utf8');
    const datasource = /datasource db \{\n([^}]*)\}/.exec(schema)?.[1] ?? '';
    const settings = Object.fromEntries([...datasource.matchAll(/^\s*(\w+)\s*=\s*"([^"]*)"/gm)].map((match) => [match[1], match[2]]));
    expect(settings).toEqual(dialect.prisma.datasource);
    expect(readFileSync(path.join(folder, 'migrations/migration_lock.toml'), 'utf8')).toContain(
      `provider = "${dialect.prisma.datasource.provider}"`,
    );
    for (const attribute of dialect.prisma.idColumnAttributes) expect(schema).toContain(`@id @default(uuid(7)) ${attribute}`);
    if (dialect.prisma.idColumnAttributes.length === 0) expect(schema).not.toContain('@db.');
    expect(existsSync(path.join(folder, 'client/client.ts'))).toBe(true);
  });

  it('builds the driver adapter the generated client is picked by, without connecting', async () => {
    // The SQLite factory creates the file's folder: give it a temporary one.
    const url = name === 'sqlite' ? `file:${path.join(scratchDir('rs-dialect-'), 'app.db')}` : (EXAMPLE_URLS[name]?.[0] ?? '');
    const adapter = await createAdapterFactory(url);
    expect({ provider: adapter.provider, adapterName: adapter.adapterName }).toEqual({
      provider: dialect.adapterProvider,
      adapterName: dialect.adapterName,
    });
    expect(dialectOfAdapter(adapter)).toBe(dialect);
    expect(readFileSync(path.join(ROOT, 'generated/database.ts'), 'utf8')).toContain(dialect.prisma.folder);
  });

  it("classifies its driver errors as database errors, its unavailability and full codes as 503, its input codes as the caller's", () => {
    const fault = { kind: 'database', unavailable: false, message: 'database error' };
    for (const className of dialect.errors.classNames) {
      const error = Object.assign(new Error('driver failure'), { name: className });
      expect(classifyError(error)).toEqual(fault);
    }
    for (const code of dialect.errors.unavailableCodes) {
      expect(classifyError(Object.assign(new Error('unreachable'), { code }))).toEqual({ ...fault, unavailable: true });
    }
    if (dialect.errors.codePrefix !== undefined) {
      expect(classifyError(Object.assign(new Error('constraint'), { code: `${dialect.errors.codePrefix}CONSTRAINT` }))).toEqual(fault);
    }
    // As the driver raises it, and as Prisma wraps it (its own code, the driver's in meta.driverAdapterError).
    const raised = (code: string): Error[] => [
      Object.assign(new Error('driver failure'), { name: dialect.errors.classNames[0], code }),
      Object.assign(new Error('Database error'), {
        name: 'PrismaClientKnownRequestError',
        code: 'P2039',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: code, code, kind: dialect.name } } },
      }),
    ];
    for (const code of dialect.errors.fullCodes)
      for (const error of raised(code))
        expect(classifyError(error)).toEqual({ kind: 'database', unavailable: true, message: 'the database has no room to write' });
    for (const [code, message] of Object.entries(dialect.errors.inputCodes ?? {}))
      for (const error of raised(code))
        expect(classifyError(error)).toEqual({ kind: 'failure', failure: { code: 'BAD_USER_INPUT', message } });
  });

  it('keeps its SQL text when the server observes its runner (default configuration: access lines on)', async () => {
    const { config } = loadConfig({ APP_AUTH__SECRET: 'a'.repeat(64) });
    const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
    const observability = await Observability.start(config, createLogger({ level: 'info', format: 'json' }, discard));
    try {
      const runner = { sql: dialect.sql, read: () => Promise.resolve([]), close: () => Promise.resolve() };
      const observed = observability.observeRunner(runner, dialect.name);
      expect(observed).not.toBe(runner);
      expect(observed.sql).toBe(dialect.sql);
      // And what /health asks of its storage (docs/hostile-input.md §18), where the runner can tell.
      const telling = observability.observeRunner({ ...runner, roomToWrite: () => Promise.resolve(false) }, dialect.name);
      expect(await telling.roomToWrite?.()).toBe(false);
    } finally {
      await observability.close();
    }
  });

  it('binds at most as many keys per statement as its parameter limit leaves room for', () => {
    const keys = keysPerStatement({ sql: dialect.sql, read: () => Promise.resolve([]), close: () => Promise.resolve() });
    expect(keys).toBe(MAX_KEYS_PER_STATEMENT);
    expect(keys).toBeLessThan(dialect.sql.maxBindParameters);
  });
});

describe('choosing a dialect', () => {
  it('lists every supported database once, the embedded default first', () => {
    expect(SUPPORTED_DATABASES).toEqual(['sqlite', 'postgresql']);
    expect(SUPPORTED_URL_FORMS).toBe('file:<path> or postgres://…');
  });

  it('refuses another scheme, naming the supported ones without showing credentials', () => {
    expect(() => dialectFor('mysql://root:hunter2@db/app')).toThrow(
      'unsupported database URL "mysql://…@db/app": use file:<path> or postgres://…',
    );
  });

  it('gives a database binding fewer parameters smaller batches', () => {
    expect(
      keysPerStatement({
        sql: { ...DIALECTS[0].sql, maxBindParameters: 2_100 },
        read: () => Promise.resolve([]),
        close: () => Promise.resolve(),
      }),
    ).toBe(1_100);
  });

  it('allows several worker processes only where events cross processes', () => {
    for (const dialect of DIALECTS) expect(dialect.workers.allowed).toBe(dialect.createEventRelay !== undefined);
  });
});
