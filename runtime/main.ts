/**
 * Running a generated server as a process: start it, stop it cleanly on SIGTERM / SIGINT, and
 * turn a configuration problem into a readable message and exit code 1 (never a stack trace).
 */
import { ConfigError } from './config.js';
import type { DatabaseClient } from './database.js';
import { type ApplicationDefinition, startServer } from './server.js';

/** Starts `definition` from `process.env`; exits the process on fatal errors. */
export async function runServer<Database extends DatabaseClient, Container>(definition: ApplicationDefinition<Database, Container>): Promise<void> {
  try {
    const server = await startServer(definition);
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      server.logger.info({ signal }, 'shutting down');
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          server.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`the server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  }
}
