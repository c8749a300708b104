/**
 * The server's own tables on PostgreSQL, beside the application's: the `resource_service` schema
 * (schedule claims, the event record; docs/decisions.md §4 and "Cron once per tick"). Prisma's
 * migrations and drift checks read the application's schema only, so these never show as drift.
 */
import type pg from 'pg';

/**
 * Runs `statements` (each `CREATE … IF NOT EXISTS`) in one transaction on `client`, after creating
 * the schema when absent, under one advisory lock for the whole schema: several workers and hosts
 * start at once, and two concurrent `CREATE … IF NOT EXISTS` of one name can still collide.
 * @throws the database's error (the role may not create a schema); the transaction is rolled back
 */
export async function ensureServiceTables(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtext('resource_service'))");
    await client.query('CREATE SCHEMA IF NOT EXISTS resource_service');
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
