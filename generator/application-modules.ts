/**
 * Importing the application's own TypeScript (`generated/app.ts`, `entities/dev.ts`) from the
 * command line (docs/architecture.md §4). The installed command runs compiled JavaScript; the
 * application stays TypeScript until `build`, so the commands that load it (`dev`, `serve`, `seed`,
 * `migrate dev`) register tsx's loader in their own process first, reading the application's
 * tsconfig.json (its decorators setting). Run from its sources (this repository, through tsx), the
 * CLI already has a loader and registers none.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

let registered = false;

/** Whether this module was loaded as TypeScript, which only happens through a loader already registered. */
const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

/** Registers tsx's loader for the application at `root`, once per process (module docstring). */
async function registerTypeScriptLoader(root: string): Promise<void> {
  if (registered || RUNNING_FROM_SOURCES) return;
  registered = true;
  const { register } = await import('tsx/esm/api');
  const tsconfig = path.join(root, 'tsconfig.json');
  register(existsSync(tsconfig) ? { tsconfig } : {});
}

/**
 * Imports the application's module `file` (absolute) with the loader registered for the
 * application at `root`; resolves with the module's namespace, rejects as `import()` does.
 */
export async function importApplicationModule(root: string, file: string): Promise<unknown> {
  await registerTypeScriptLoader(root);
  return import(pathToFileURL(file).href) as Promise<unknown>;
}
