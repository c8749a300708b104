/**
 * Runs the generator's command line (generator/cli.ts) from JavaScript compiled ahead of time, for
 * `npm run generate`, `npm run migrate` and `npm run token` (docs/decisions.md §10, "`generate` runs
 * compiled"). Through tsx every module of
 * the generator and the runtime passes tsx's loader hooks on each run; compiled once, a `generate`
 * starts about 0.35 s sooner, and one that regenerates the Prisma clients about 0.5 s sooner.
 *
 * The compiled copy is esbuild's transform of `generator/` and `runtime/` — the transform tsx
 * applies, with the same tsconfig.json — kept under `node_modules/.cache/resource-service/` in a
 * folder named by a digest of every source's content, tsconfig.json, esbuild's version and the
 * checkout's path. Any edit makes a new digest and so a new copy: a stale copy is never run. A
 * copy is written to a
 * temporary folder and renamed into place whole, so runs at the same time never see half of one;
 * copies unused for a day are removed. The copy's `generator/tool-root.js` names this checkout, so
 * the compiled generator finds the templates, the runtime and its cache where the sources are.
 *
 * Takes the command line of `generator/cli.ts` for `generate`, `init`, `migrate` and `token` (which read
 * the declarations, the migrations and the settings), and refuses `dev`, `serve` and `seed`, which
 * import the application's TypeScript (they run through tsx). A source that does not compile is
 * reported as `error: …` (esbuild names the file, line and column) with exit code 1; when the copy
 * cannot be written (a read-only `node_modules`) the command runs from its sources through tsx.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This checkout: the folder above generator/. */
const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The folders compiled, relative to {@link ROOT}. */
const SOURCE_DIRS = ['generator', 'runtime'];

/** Where compiled copies are kept (beside the generator's other caches, generator/cache.ts). */
const BUILDS_DIR = path.join(ROOT, 'node_modules', '.cache', 'resource-service', 'compiled-generator');

/** Copies not used for this long are removed (milliseconds). */
const UNUSED_FOR = 24 * 60 * 60 * 1000;

/**
 * The TypeScript sources under `dir` (absolute), sorted; declaration files excepted.
 * @param {string} dir
 * @returns {string[]}
 */
function sourcesUnder(dir) {
  /** @type {string[]} */
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourcesUnder(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found.sort();
}

/**
 * A digest of everything the compiled copy is made from.
 * @param {readonly string[]} sources absolute paths
 * @param {string} esbuildVersion
 * @returns {string}
 */
function digestOf(sources, esbuildVersion) {
  const hash = createHash('sha256');
  // The checkout too: the copy names it (tool-root.js), and copies of a project share node_modules.
  hash.update(`${ROOT}\0esbuild ${esbuildVersion}\0`);
  // And this file: how the copy is made (esbuild's options, tool-root.js).
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(path.join(ROOT, 'tsconfig.json')));
  for (const source of sources) {
    hash.update(`\0${path.relative(ROOT, source)}\0`);
    hash.update(readFileSync(source));
  }
  return hash.digest('hex').slice(0, 24);
}

/**
 * Removes the compiled copies other than `keep` that were not used for {@link UNUSED_FOR}.
 * @param {string} keep
 */
function removeUnusedCopies(keep) {
  /** @type {string[]} */
  let names;
  try {
    names = readdirSync(BUILDS_DIR);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(BUILDS_DIR, name);
    if (dir === keep) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > UNUSED_FOR) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}

/**
 * Marks the copy in `dir` used now (removeUnusedCopies goes by this time); false when there is none.
 * @param {string} dir
 * @returns {boolean}
 */
function markUsed(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder of the compiled copy of the current sources, compiled now when there is none.
 * @returns {Promise<string>}
 */
async function compiledCopy() {
  const esbuild = await import('esbuild');
  const sources = SOURCE_DIRS.flatMap((dir) => sourcesUnder(path.join(ROOT, dir)));
  const target = path.join(BUILDS_DIR, digestOf(sources, esbuild.version));
  if (markUsed(target) && existsSync(path.join(target, 'generator', 'cli.js'))) return target;
  mkdirSync(BUILDS_DIR, { recursive: true });
  const scratch = `${target}.${process.pid}-${Date.now()}`;
  // Made here, not by esbuild, so an unwritable cache fails with its file-system code.
  mkdirSync(scratch);
  try {
    await esbuild.build({
      entryPoints: sources,
      outdir: scratch,
      outbase: ROOT,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      tsconfig: path.join(ROOT, 'tsconfig.json'),
      logLevel: 'silent',
    });
    writeFileSync(
      path.join(scratch, 'generator', 'tool-root.js'),
      `// Written by generator/launch.mjs: the checkout this copy was compiled from.\nexport const TOOL_ROOT = ${JSON.stringify(ROOT)};\n`,
    );
    // ES modules of the copy: without it Node would read the .js files by the nearest package.json.
    writeFileSync(path.join(scratch, 'package.json'), '{ "type": "module" }\n');
    // Packages resolve from the checkout's node_modules even where Node reads the copy by its real
    // path (a node_modules that is a link to a folder of another name).
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  } catch (error) {
    // A source that does not compile leaves no half-made copy behind.
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(scratch, target);
  } catch (error) {
    // Another run put the same copy in place first: use it.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(path.join(target, 'generator', 'cli.js'))) throw error;
  }
  removeUnusedCopies(target);
  return target;
}

/** The commands that import the application's own TypeScript, which only tsx runs. */
const THROUGH_TSX = new Set(['dev', 'serve', 'seed']);

/**
 * The command `args` name (`generate`), skipping options and the value of `--root`; undefined
 * when they name none.
 * @param {readonly string[]} args
 * @returns {string | undefined}
 */
function commandOf(args) {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--root') index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * Whether `error` says a file or folder is missing or cannot be written — the copy cannot be made
 * or was removed — rather than that a source does not compile.
 * @param {unknown} error
 * @returns {boolean}
 */
function isFileSystemError(error) {
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return typeof code === 'string' && /^(E[A-Z]+|ERR_MODULE_NOT_FOUND)$/.test(code);
}

/**
 * Runs the command line from its sources through tsx, as `npm run generate` did before it ran
 * compiled: when the copy cannot be written (a read-only node_modules) or vanished.
 * @returns {Promise<void>}
 */
async function runFromSources() {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(ROOT, 'generator', 'cli.ts')).href);
}

/**
 * Runs the command line (module docstring). Resolves with the exit code of a refusal or a failure
 * reported here, or undefined when the command line ran (it sets its own exit code).
 * @returns {Promise<number | undefined>}
 */
async function main() {
  const command = commandOf(process.argv.slice(2));
  if (command !== undefined && THROUGH_TSX.has(command)) {
    process.stderr.write(
      `error: ${command} imports the application's TypeScript: run it as \`npm run ${command}\` (tsx generator/cli.ts ${command}), not through generator/launch.mjs\n`,
    );
    return 1;
  }
  /** @type {string} */
  let copy;
  try {
    copy = await compiledCopy();
  } catch (error) {
    if (isFileSystemError(error)) {
      // The copy cannot be written (a read-only node_modules): the sources run instead.
      await runFromSources();
      return undefined;
    }
    // esbuild's own message names each file, line and column that does not compile.
    process.stderr.write(
      `error: could not compile the generator (generator/launch.mjs): ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  try {
    await import(pathToFileURL(path.join(copy, 'generator', 'cli.js')).href);
    return undefined;
  } catch (error) {
    if (!existsSync(copy) && isFileSystemError(error)) {
      // Removed under this run (unused for a day, by another run): the sources run instead.
      await runFromSources();
      return undefined;
    }
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

const code = await main();
if (code !== undefined) process.exitCode = code;
