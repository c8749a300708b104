/**
 * A cache of tool output by a digest of its input, on disk under the application's
 * `node_modules/.cache/` (where build tools keep theirs), so a `generate` whose inputs did not
 * change skips loading the tool (docs/architecture.md §1: the REST client's types from
 * openapi-typescript). Output never depends on it: a missing, unreadable or damaged entry is a miss
 * and the tool runs; an entry is checked against the digest of its content before it is used.
 * Nothing is ever written inside the installed package, which may be read-only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The generator's cache folder for the application at `root`: `node_modules/.cache/resource-service/`
 * there, or undefined when the application has no `node_modules` (nothing is cached then).
 */
export function generatorCacheDir(root: string): string | undefined {
  const modules = path.join(root, 'node_modules');
  return existsSync(modules) ? path.join(modules, '.cache', 'resource-service') : undefined;
}

/** Text by key; what a miss returns is `undefined`. */
export interface TextCache {
  get(key: string): string | undefined;
  set(key: string, text: string): void;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The key of an input: a digest of every part that decides the output (tool versions, options, input). */
export function cacheKey(parts: readonly string[]): string {
  return digest(JSON.stringify(parts));
}

/**
 * A cache in `dir`, one file per key, each headed by the digest of its text; with no `dir`, one that
 * never hits. Failing to write an entry (a read-only folder) only costs the next run the time the
 * entry would have saved.
 */
export function diskCache(dir: string | undefined): TextCache {
  if (dir === undefined) return { get: () => undefined, set: () => undefined };
  return {
    get(key) {
      let stored: string;
      try {
        stored = readFileSync(path.join(dir, key), 'utf8');
      } catch {
        return undefined;
      }
      const newline = stored.indexOf('\n');
      const text = stored.slice(newline + 1);
      return newline > 0 && stored.slice(0, newline) === digest(text) ? text : undefined;
    },
    set(key, text) {
      try {
        mkdirSync(dir, { recursive: true });
        // Written aside and renamed, so a reader never sees half an entry.
        const partial = path.join(dir, `${key}.${String(process.pid)}.partial`);
        writeFileSync(partial, `${digest(text)}\n${text}`);
        renameSync(partial, path.join(dir, key));
      } catch {
        // Not cached: the next run runs the tool again.
      }
    },
  };
}
