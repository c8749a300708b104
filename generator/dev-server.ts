/**
 * One version of the server `npm run dev` runs (docs/decisions.md §10): a child process of the dev
 * loop (generator/dev-loop.ts), started with `--root <project>` and an IPC channel. A fresh process
 * per version is what lets changed code in `entities/` and `generated/` run: a module, once
 * imported, stays what it was in the process that imported it.
 *
 * A child starts as a standby: it loads the runtime — the server, every transport, the Prisma
 * client's runtime, and the libraries behind them, most of a boot's time — while the current
 * version serves, then waits. Told `boot` (with the port to take), it loads the application as it
 * is on disk now (`boot` is sent only once the child has said `standby`: a message that arrives
 * before its listener is lost) and builds everything (database, transports), says `ready`, and listens only when
 * told `listen` — by then the loop has stopped the previous version, whose port it takes. A child
 * that fails before `ready` never disturbed the running one. It says `listening` with its address
 * and entrypoints, and stops (closing the server gracefully) on SIGTERM, SIGINT, or when its
 * parent goes away.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DatabaseClient } from '../runtime/data/database.js';
import { ConfigError } from '../runtime/server/config.js';
import { importApplicationModule } from './application-modules.js';
import { closeOnSignals, exitWhenWritten } from '../runtime/server/exit.js';
import type { ApplicationDefinition, RunningServer } from '../runtime/server/server.js';
import type { Entrypoint } from '../runtime/transports/index.js';

/** What the child tells the loop: it waits to be told to boot; it is ready to listen; it listens. */
export type DevServerMessage =
  | { readonly kind: 'standby' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'listening'; readonly url: string; readonly port: number; readonly entrypoints: readonly Entrypoint[] };

/** What the loop tells the child: boot now, with these `APP_*` settings on top (the port); take the port now. */
export type DevServerCommand = { readonly kind: 'boot'; readonly env: Readonly<Record<string, string>> } | { readonly kind: 'listen' };

/** Resolves with the parent's next command of `kind`; rejects when it goes away first. */
function told<Kind extends DevServerCommand['kind']>(kind: Kind): Promise<Extract<DevServerCommand, { kind: Kind }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      if ((message as Partial<DevServerCommand> | null)?.kind !== kind) return;
      process.off('message', onMessage);
      resolve(message as Extract<DevServerCommand, { kind: Kind }>);
    };
    process.on('message', onMessage);
    process.once('disconnect', () => reject(new Error(`the dev loop went away before this server was told to ${kind}`)));
  });
}

/** The runtime folder beside the generator's, and the extension of its modules (`.ts` from sources, `.js` compiled). */
const RUNTIME_DIR = fileURLToPath(new URL('../runtime/', import.meta.url));
const MODULE_EXTENSION = path.extname(fileURLToPath(import.meta.url));

/**
 * Loads what every version of any application loads: the server, each transport, the Prisma
 * client's runtime. Never rejects: what fails to load here fails again, reported, at boot.
 */
async function preload(): Promise<void> {
  try {
    await import('../runtime/server/server.js');
    const transports = path.join(RUNTIME_DIR, 'transports');
    for (const name of readdirSync(transports).sort()) {
      const index = path.join(transports, name, `index${MODULE_EXTENSION}`);
      if (existsSync(index)) await import(pathToFileURL(index).href);
    }
    await import('@prisma/client/runtime/client');
  } catch {
    // Reported when the application loads the same module.
  }
}

function send(message: DevServerMessage): void {
  process.send?.(message);
}

/** Starts the generated application of `root`, by the handshake of the module docstring. */
async function main(root: string): Promise<void> {
  const preloaded = preload();
  // A message that arrives before its listener is lost: listen first, then say so.
  const boot = told('boot');
  send({ kind: 'standby' });
  const { env } = await boot;
  Object.assign(process.env, env);
  await preloaded;
  const file = path.join(root, 'generated', 'app.ts');
  const { application } = (await importApplicationModule(root, file)) as { application: ApplicationDefinition<DatabaseClient, unknown> };
  const { startServer } = await import('../runtime/server/server.js');
  const server: RunningServer = await startServer(application, {
    beforeListen: async () => {
      const listen = told('listen');
      send({ kind: 'ready' });
      await listen;
    },
  });
  send({ kind: 'listening', url: server.url, port: server.port, entrypoints: server.entrypoints });
  closeOnSignals(server, ['SIGTERM', 'SIGINT', 'disconnect'], false);
}

const rootIndex = process.argv.indexOf('--root');
main(path.resolve(rootIndex >= 0 ? (process.argv[rootIndex + 1] ?? '.') : '.')).catch((error: unknown) => {
  // A configuration problem is a message; anything else (the application's own code failing at
  // boot) keeps its stack, which is what the developer needs to fix it.
  const text = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`error: ${text}\n`);
  void exitWhenWritten(1);
});
