/**
 * Once per `npm test`: a PostgreSQL cluster for the postgresql project. `.ci/run` starts one and
 * passes `TEST_POSTGRES_URL`; locally, when PostgreSQL is installed and no URL is given, a
 * throwaway cluster is started here, and stopped and removed at the end.
 */
import { type PostgresCluster, postgresBinaries, startCluster } from './postgres.js';

let cluster: PostgresCluster | undefined;

export async function setup(): Promise<void> {
  if (process.env.TEST_POSTGRES_URL || !postgresBinaries()) return;
  cluster = await startCluster();
  process.env.TEST_POSTGRES_URL = cluster.url;
}

export function teardown(): void {
  cluster?.destroy();
}
