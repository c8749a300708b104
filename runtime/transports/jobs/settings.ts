/**
 * The jobs transport's settings, `APP_JOBS__*` (docs/behaviour.md §10.1): retries, back-off, expiry
 * and concurrency of every queue. Collected into the configuration by runtime/transports/settings.ts.
 */
import { z } from 'zod';
import { integer, settingsSection } from '../../server/settings.js';

/** The `jobs` section (`APP_JOBS__RETRY_LIMIT`, …). */
export const JOBS_SETTINGS = settingsSection(
  'jobs',
  z.object({
    /** Retries after a job's first failed run; past them it goes to its dead-letter queue. */
    retryLimit: integer(0, 100).default(3),
    /** Seconds before the first retry, doubled for each retry after it. */
    retryDelay: integer(0, 86_400).default(5),
    /** Seconds a running job may take before it counts as failed and runs again elsewhere (PostgreSQL). */
    expire: integer(1, 86_400).default(900),
    /** Jobs of one queue one process runs at once. */
    concurrency: integer(1, 1_000).default(4),
  }),
);
