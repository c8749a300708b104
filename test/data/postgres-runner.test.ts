// Runs on: postgresql
/**
 * What the PostgreSQL SQL runner leaves on its connections (runtime/dialects/postgresql.ts;
 * docs/guide/deployment.md "A connection pooler"): reaching PostgreSQL directly it prepares each
 * statement once per connection under a name and runs it by name afterwards; told its URL is a
 * transaction-mode pooler (`pooled`, set when `APP_DATABASE__DIRECT_URL` names another address) it
 * prepares nothing by name, so no later transaction on another server connection can miss one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sqltag } from '../../runtime/data/sql-scope.js';
import { POSTGRESQL } from '../../runtime/dialects/postgresql.js';
import { createPostgresDatabase } from '../support/database.js';

/** The statements prepared by name on the connection that runs this. */
const PREPARED = sqltag`SELECT name FROM pg_prepared_statements WHERE name LIKE ${'rs\\_%'} ORDER BY name`;

describe('the PostgreSQL SQL runner', () => {
  let url = '';
  beforeAll(async () => {
    url = await createPostgresDatabase();
  }, 60_000);

  const preparedAfterTwoReads = async (pooled: boolean): Promise<unknown[]> => {
    const runner = await POSTGRESQL.createRunner(url, { pooled });
    try {
      await runner.read(sqltag`SELECT ${1}::int AS one`);
      // One read at a time: the pool hands the same idle connection back.
      return (await runner.read(PREPARED)).map((row) => row.name);
    } finally {
      await runner.close();
    }
  };

  it('prepares its statements by name on a direct connection, and reuses them', async () => {
    const names = await preparedAfterTwoReads(false);
    expect(names).toHaveLength(2);
    expect(names.every((name) => typeof name === 'string' && /^rs_[0-9a-f]{20}$/.test(name))).toBe(true);
  });

  it('prepares nothing by name behind a pooler', async () => {
    expect(await preparedAfterTwoReads(true)).toEqual([]);
  });
});
