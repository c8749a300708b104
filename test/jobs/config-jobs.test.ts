/**
 * The job and schedule settings (docs/behaviour.md §10; docs/guide/configuration.md): `APP_JOBS__*` with
 * their defaults and bounds, and `APP_CRON__<TASK>`, which must name a scheduled task of the
 * application and hold `off` or a cron expression — checked at boot, every problem at once.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/server/config.js';

const cronSettings = ['APP_CRON__WRITE_DIGESTS', 'APP_CRON__NIGHTLY'];

/** The problems `env` gives, as `VARIABLE: message` lines. */
function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env, { cronSettings });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => `${problem.variable}: ${problem.message}`);
  }
}

describe('APP_JOBS__*', () => {
  it('defaults to 3 retries 5 s apart, doubling, 900 s to expire, 4 at once', () => {
    expect(loadConfig({}).config.jobs).toEqual({ retryLimit: 3, retryDelay: 5, expire: 900, concurrency: 4 });
  });

  it('refuses values out of bounds, naming each variable', () => {
    expect(problems({ APP_JOBS__RETRY_LIMIT: '-1', APP_JOBS__EXPIRE: '0', APP_JOBS__CONCURRENCY: 'many' })).toEqual([
      'APP_JOBS__RETRY_LIMIT: expected at least 0 (got "-1")',
      'APP_JOBS__EXPIRE: expected at least 1 (got "0")',
      'APP_JOBS__CONCURRENCY: expected an integer between 1 and 1000 (got "many")',
    ]);
  });
});

describe('APP_CRON__<TASK>', () => {
  it('reads an expression or off for the tasks the application declares', () => {
    const { config } = loadConfig({ APP_CRON__WRITE_DIGESTS: ' */5 * * * * ', APP_CRON__NIGHTLY: 'off' }, { cronSettings });
    expect(config.cron).toEqual({ APP_CRON__WRITE_DIGESTS: '*/5 * * * *', APP_CRON__NIGHTLY: 'off' });
  });

  it('refuses a setting no task has, with the closest one, and a value that is no schedule', () => {
    expect(problems({ APP_CRON__WRITE_DIGEST: 'off', APP_CRON__NIGHTLY: 'sometimes', APP_HTTP__PORT: 'x' })).toEqual([
      'APP_HTTP__PORT: expected an integer between 0 and 65535 (got "x")',
      'APP_CRON__WRITE_DIGEST: no scheduled task has this setting; did you mean APP_CRON__WRITE_DIGESTS? (scheduled tasks: APP_CRON__WRITE_DIGESTS, APP_CRON__NIGHTLY)',
      "APP_CRON__NIGHTLY: expected off or a cron expression such as '0 * * * *' (CronPattern: invalid configuration format ('sometimes'), exactly five, six, or seven space separated parts are required.) (got \"sometimes\")",
    ]);
  });

  it('is an error in an application without scheduled tasks, and ignored by commands that start no server', () => {
    expect(() => loadConfig({ APP_CRON__NIGHTLY: 'off' }, { cronSettings: [] })).toThrow(
      'APP_CRON__NIGHTLY: no scheduled task has this setting (the application declares no scheduled task)',
    );
    expect(loadConfig({ APP_CRON__NIGHTLY: 'off' })).toMatchObject({
      config: { cron: {} },
      warnings: [expect.stringContaining('APP_AUTH__SECRET')],
    });
  });
});
