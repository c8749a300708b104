/**
 * The development secret (docs/hostile-input.md §10): what the development commands (`dev`,
 * `serve`, `seed`, `token`) sign and check tokens with when APP_AUTH__SECRET is not set outside
 * production. Random, made on first use and kept beside the development database (the SQLite
 * file's folder, else `data/`) in `.dev-secret`, readable by its owner only, so it is different on
 * every checkout, never in the source, and ignored by git with the database. A server started any
 * other way without APP_AUTH__SECRET checks tokens against a random secret of its own process.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dialectFor } from '../runtime/dialects/index.js';

/** The file name of the secret, in the development database's folder. */
const SECRET_FILE = '.dev-secret';

/** The folder of the development database at `url` for the application at `root`: a SQLite file's, else `data/`. */
function secretFolder(root: string, url: string | undefined): string {
  try {
    const file = url === undefined ? undefined : dialectFor(url).databaseFiles?.(url)[0];
    if (file !== undefined) return path.dirname(path.resolve(root, file));
  } catch {
    // An unsupported URL: the configuration reports it where it is read.
  }
  return path.join(root, 'data');
}

/**
 * Sets `env.APP_AUTH__SECRET` to the development secret of the application at `root` (reading it,
 * or making it on first use) unless a secret or key set is configured or NODE_ENV is production;
 * `url` is the development database's. Returns the file it came from, or undefined when none was
 * used; a file that cannot be read or written leaves `env` as it was (the server then warns).
 */
export function useDevelopmentSecret(root: string, url: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.APP_AUTH__SECRET || env.APP_AUTH__JWKS_URL || env.NODE_ENV === 'production') return undefined;
  const folder = secretFolder(root, url);
  const file = path.join(folder, SECRET_FILE);
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    secret = '';
  }
  if (secret.length < 32) {
    secret = randomBytes(32).toString('hex');
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    } catch {
      return undefined;
    }
  }
  env.APP_AUTH__SECRET = secret;
  return file;
}
