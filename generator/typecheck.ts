/**
 * The TypeScript checker over the declarations (docs/behaviour.md §7, build-time failures):
 * `generate --check` fails on a type error in `entities/` — the generator itself reads the
 * declarations syntactically, so without this a file that does not compile passed CI — and `dev`
 * and `generate --watch` print them as warnings, leaving the running server be.
 *
 * The program is the application's: its `tsconfig.json` (the nearest one above the project root)
 * with the declaration files as roots, so what they import is checked as they use it; only the
 * declaration files' own diagnostics are reported. Checking costs seconds (the runtime, zod and the
 * Prisma types are read), so a result is kept on disk by a digest of every file the program read
 * (generator/cache.ts): a run whose inputs did not change reads the files and reuses it. In one
 * process (`dev`, `--watch`), the previous program is handed to the next, which re-reads only the
 * files that changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cacheKey, diskCache, generatorCacheDir } from './cache.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { DeclarationProjectCache, ProjectLayout } from './parse/project.js';
import { relativeFile } from './parse/references.js';
import type Ts from 'typescript';
import type { StageRuleId } from './validate/rule.js';

const require = createRequire(import.meta.url);

/** The compiler, loaded on the first check that misses the cache (loading it takes a while). */
let compiler: typeof Ts | undefined;
const typescript = (): typeof Ts => (compiler ??= require('typescript') as typeof Ts);

/** The rule id of a TypeScript error in a declaration file. */
export const TYPE_ERROR_RULE: StageRuleId = 'type-error';

/** Options when no `tsconfig.json` is found: those of a new application (templates/new-application). */
const DEFAULT_CONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    types: ['node'],
  },
};

/** What is kept on disk: the digest of the files read, the files, and the diagnostics found. */
interface StoredCheck {
  readonly digest: string;
  /** The files the program read: relative to the application root when inside it, else absolute. */
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A digest of the content of `files` — relative to `root` when inside it, so that a copy of the
 * application (another checkout, a test's copy sharing node_modules and so the cache) reuses the
 * result of the same files — or undefined when one cannot be read (then the check runs).
 */
function digestOf(root: string, files: readonly string[]): string | undefined {
  const hash = createHash('sha256');
  try {
    for (const file of files)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.resolve(root, file)))
        .update('\0');
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/** `file` relative to `root` when it is inside it, else as it is (absolute). */
function portable(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

/** The nearest `tsconfig.json` at or above `root`, if any. */
function findConfigFile(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The compiler options of `configFile` (or the defaults), as the compiler reads them. */
function compilerOptions(ts: typeof Ts, root: string, configFile: string | undefined): Ts.CompilerOptions {
  if (configFile !== undefined) {
    const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (parsed) return parsed.options;
  }
  return ts.convertCompilerOptionsFromJson(DEFAULT_CONFIG.compilerOptions, root).options;
}

/** A TypeScript diagnostic as one of ours: `file:line:col`, the `TSnnnn` code and the message. */
function toDiagnostic(
  ts: typeof Ts,
  layout: ProjectLayout,
  diagnostic: Ts.Diagnostic,
  severity: Diagnostic['severity'],
): Diagnostic | undefined {
  const { file, start } = diagnostic;
  if (!file || start === undefined) return undefined;
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/\s+/g, ' ');
  return {
    ruleId: TYPE_ERROR_RULE,
    severity,
    message: `TS${String(diagnostic.code)}: ${message} (the declarations must compile: fix the type, as \`tsc --noEmit\` would ask)`,
    span: { file: relativeFile(layout, file.fileName), line: line + 1, column: character + 1, length: Math.max(1, diagnostic.length ?? 1) },
  };
}

/**
 * Type-checks the declaration files `files` (absolute paths) of the application at `layout`.
 *
 * Returns their syntactic and semantic diagnostics as {@link TYPE_ERROR_RULE} diagnostics of
 * `severity`, sorted by place; `cache` (one per process) keeps the program for the next run.
 * Errors of the configuration, and of files the declarations import, are not reported (the
 * declarations' own errors show where they use them). Never throws on code that does not compile.
 */
export function checkDeclarationTypes(
  layout: ProjectLayout,
  files: readonly string[],
  severity: Diagnostic['severity'],
  cache?: DeclarationProjectCache,
): Diagnostic[] {
  const configFile = findConfigFile(layout.root);
  const roots = [...files].sort();
  const store = diskCache(generatorCacheDir(layout.root));
  const version = (require('typescript/package.json') as { version: string }).version;
  const root = path.resolve(layout.root);
  const key = cacheKey([
    'typecheck',
    version,
    configFile === undefined ? 'default' : portable(root, configFile),
    configFile === undefined ? '' : readFileSync(configFile, 'utf8'),
    ...roots.map((file) => portable(root, file)),
  ]);
  const storedText = store.get(key);
  if (storedText !== undefined) {
    const stored = JSON.parse(storedText) as StoredCheck;
    if (digestOf(root, stored.files) === stored.digest) return stored.diagnostics.map((diagnostic) => ({ ...diagnostic, severity }));
  }
  const ts = typescript();
  const options = compilerOptions(ts, layout.root, configFile);
  const program = ts.createProgram({
    rootNames: roots,
    options: { ...options, noEmit: true },
    ...(cache?.typeProgram ? { oldProgram: cache.typeProgram } : {}),
  });
  if (cache) cache.typeProgram = program;
  const diagnostics = roots.flatMap((file) => {
    const sourceFile = program.getSourceFile(file);
    if (!sourceFile) return [];
    return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)].flatMap(
      (diagnostic) => toDiagnostic(ts, layout, diagnostic, severity) ?? [],
    );
  });
  const read = program
    .getSourceFiles()
    .map((file) => portable(root, path.resolve(file.fileName)))
    .sort();
  const digest = digestOf(root, read);
  if (digest !== undefined) store.set(key, JSON.stringify({ digest, files: read, diagnostics } satisfies StoredCheck));
  return diagnostics;
}
