/**
 * `serve`: starts the generated server, configured from APP_* variables (`--port` and `--host`
 * stand for APP_HTTP__PORT and APP_HTTP__HOST).
 */
import type { Command } from 'commander';
import { applyListenOptions, type ListenOptions, portNumber, runGeneratedServer } from './common.js';

/** Adds `serve [--port] [--host]` to `program`; `root` reads `--root`. */
export function addServeCommand(program: Command, root: () => string): void {
  program
    .command('serve')
    .description('start the generated server (configuration from APP_* variables; APP_HTTP__WORKERS forks workers)')
    .option('--port <port>', 'listen on this port instead of APP_HTTP__PORT (default 3000; 0 picks a free one)', portNumber)
    .option('--host <address>', 'listen on this address instead of APP_HTTP__HOST')
    .action(async (options: ListenOptions) => {
      applyListenOptions(options);
      await runGeneratedServer(root());
    });
}
