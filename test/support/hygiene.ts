/**
 * The hygiene tools as the tests run them (docs/architecture.md §6 "Hygiene is checked"), each in a
 * process of its own: the type check and the type-aware lint over one program, Prettier and knip as
 * their npm scripts would run them, with findings as one line each (`file:line:column rule
 * message`) so that a failing test lists them.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { promisify } from 'node:util';
import { ROOT } from './project.js';
import type { StaticFindings } from './static-checks.js';

const run = promisify(execFile);

/**
 * Type-checks the project `tsconfig` (a path relative to `cwd`) as `tsc --noEmit -p` does and lints
 * `targets` with the configuration of `cwd`, typescript-eslint reading that same program
 * (./static-checks.ts), in a process of its own: the program is gigabytes that the test's worker,
 * which runs other files after this one, should not keep. Rejects when that process fails (a
 * tsconfig it cannot read, a broken ESLint configuration).
 */
export async function typeCheckAndLint(cwd: string, tsconfig: string, targets: readonly string[]): Promise<StaticFindings> {
  const script = path.join(ROOT, 'test/support/static-checks.ts');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, cwd, tsconfig, ...targets], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  return JSON.parse(stdout) as StaticFindings;
}

/**
 * Runs Prettier's check (.prettierrc.json, .prettierignore) over the repository at `cwd`; returns the
 * files it would rewrite, relative to `cwd` (empty when everything is formatted). Throws when Prettier
 * itself fails (exit 2: a file it cannot parse, a broken configuration).
 */
export function unformattedFiles(cwd: string): string[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--list-different', '.'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 240_000,
  });
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`prettier exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  return result.stdout.split('\n').filter((file) => file !== '');
}

/**
 * Runs knip (knip.config.ts) in `cwd`; returns its findings, one line each: files nothing reaches,
 * exports and types nothing imports, dependencies nothing uses, and configuration hints. Empty when
 * knip exits 0. Throws when knip itself fails (exit 2: a broken configuration).
 */
export function knipFindings(cwd: string): string[] {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/knip/bin/knip.js'), '--no-progress', '--reporter', 'compact', '--treat-config-hints-as-errors'],
    {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 240_000,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    },
  );
  if (result.status === 0) return [];
  if (result.status !== 1) throw new Error(`knip exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  const findings = `${result.stdout}${result.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('npm warn'));
  // The compact reporter prints no configuration hint, though they fail the run: a failure with
  // nothing printed is still one.
  return findings.length > 0
    ? findings
    : [
        'knip failed without a finding the compact reporter prints: run `npx knip --treat-config-hints-as-errors` for its configuration hints',
      ];
}

/** What {@link importCycles} leaves out. */
export interface CycleExclusions {
  /** Modules not read at all (a third party's generated code: `generated/prisma/`). */
  readonly skip?: readonly RegExp[];
  /**
   * Whether a set of modules may import each other in a ring: a strongly connected set for which
   * this answers true is not reported (every module of it is one kind of file, say).
   */
  readonly allowed?: (modules: readonly string[]) => boolean;
}

/**
 * What the cycle check of an application (its `entities/` with its `generated/`) leaves out:
 * - `generated/prisma/`: Prisma's client, which `generate` has Prisma write (not committed, not
 *   ours to change), and whose modules import each other in rings of their own;
 * - rings made of entity declarations only (`entities/user.entity.ts ⇄ entities/post.entity.ts`):
 *   a relation names its target class (`@BelongsTo(() => User)`), so both ends of a relation
 *   declared on both sides import each other. This is the declaration language, and harmless: each
 *   reference is a thunk, read after both classes exist. A ring that reaches any other module
 *   (a service, a generated file) is reported.
 */
export const APPLICATION_CYCLES: CycleExclusions = {
  skip: [/(^|[\\/])generated[\\/]prisma[\\/]/],
  allowed: (modules) => modules.every((module) => /^entities\/[^/]+\.entity\.ts$/.test(module)),
};

/**
 * The import cycles among the TypeScript modules under `dirs` of `root`, taken together (madge over
 * the TypeScript compiler's view of imports, `import type` included: a type-only cycle still says a
 * declaration sits in the wrong module), less what `exclusions` leave out. One line per strongly
 * connected set of modules — every cycle lies in one — written as one cycle through it,
 * `a.ts → b.ts → a.ts`, paths relative to `root`; so no cycle hides behind another. Throws when it
 * reads no import at all.
 */
export async function importCycles(root: string, dirs: readonly string[], exclusions: CycleExclusions = {}): Promise<string[]> {
  const { default: madge } = await import('madge');
  const graph = await madge(
    dirs.map((dir) => path.join(root, dir)),
    {
      baseDir: root,
      fileExtensions: ['ts'],
      tsConfig: path.join(root, 'tsconfig.json'),
      excludeRegExp: [...(exclusions.skip ?? [])],
      detectiveOptions: { ts: { skipTypeImports: false } },
    },
  );
  const imports = graph.obj();
  // A check that read nothing (a wrong folder, a tsconfig that resolves nothing) would pass vacuously.
  if (Object.values(imports).every((targets) => targets.length === 0))
    throw new Error(
      `read no import under ${dirs.join(', ')} of ${root} (madge skipped: ${graph.warnings().skipped.join(', ') || 'nothing'})`,
    );
  return stronglyConnected(imports)
    .filter((set) => set.length > 1 || (imports[set[0] ?? '']?.includes(set[0] ?? '') ?? false))
    .filter((set) => !(exclusions.allowed?.(set) ?? false))
    .map((set) => cycleThrough(set, imports).join(' → '));
}

/** The strongly connected sets of `graph` (Tarjan's algorithm), each sorted, in order of their first module. */
function stronglyConnected(graph: Readonly<Record<string, readonly string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module) ?? 0);
    stack.push(module);
    onStack.add(module);
    for (const next of graph[module] ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const set: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      set.push(member);
      if (member === module) break;
    }
    sets.push(set.sort());
  };
  for (const module of Object.keys(graph).sort()) if (!index.has(module)) visit(module);
  return sets.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** A shortest cycle from the first module of `set` back to it, through `set` only. */
function cycleThrough(set: readonly string[], graph: Readonly<Record<string, readonly string[]>>): string[] {
  const [start = ''] = set;
  const members = new Set(set);
  const previous = new Map<string, string>();
  const queue = [start];
  for (const module of queue) {
    for (const next of graph[module] ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const chain: string[] = [];
        for (let at: string | undefined = module; at !== undefined && at !== start; at = previous.get(at)) chain.unshift(at);
        return [start, ...chain, start];
      }
      if (!previous.has(next)) {
        previous.set(next, module);
        queue.push(next);
      }
    }
  }
  return [...set, start];
}

/**
 * Doc comments that document nothing, as `file:line`: a `/** … *\/` followed by a blank line,
 * another doc comment or the end of a block, other than the module's header (the first thing in
 * the file, after any `//` lines). Takes paths relative to `root`.
 */
export function orphanedDocComments(root: string, files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*?\*\/[ \t]*\n(?=[ \t]*(?:\n|\/\*\*|\}))/g)) {
      const before = text.slice(0, match.index);
      if (/^(?:\s*\/\/[^\n]*\n)*\s*$/.test(before)) continue;
      found.push(`${file}:${before.split('\n').length}`);
    }
  }
  return found;
}

/** A TypeScript file by its path relative to the repository (as findings name it) and its text. */
export interface SourceText {
  readonly path: string;
  readonly text: string;
}

/** Methods whose call with a literal asks "is it this text?": a branch when the literal names a database. */
const MATCHING_METHODS = new Set([
  'startsWith',
  'endsWith',
  'includes',
  'indexOf',
  'match',
  'matchAll',
  'test',
  'search',
  'replace',
  'replaceAll',
  'split',
  'localeCompare',
  'has',
  'get',
]);

/** Operators comparing two values. */
const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Operators whose right side is the value taken when the left has none. */
const DEFAULTS = new Set([ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken]);

/**
 * Where code branches on which database it runs on (docs/architecture.md §3: only runtime/dialects/
 * may), as `file:line what`: a comparison, `case`, matching call (`startsWith`, `test`, `includes`, …)
 * or regular expression whose literal contains one of `tokens` (lower case: each database's name,
 * Prisma provider, adapter, URL scheme, driver code prefix), or a default (`??`, `||`) to such a
 * literal; an object key that is a database's
 * name or provider (a table by database); and an import of a module of runtime/dialects/ other
 * than its index.ts and dialect.ts (a dialect named directly). Comments and messages are not
 * branches and are not reported.
 */
export function databaseNameBranches(files: readonly SourceText[], tokens: readonly string[], keys: readonly string[]): string[] {
  const found: string[] = [];
  const names = (text: string): boolean => tokens.some((token) => text.toLowerCase().includes(token));
  const literal = (node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.RegularExpressionLiteral =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node);
  /** Whether `node` is, or (an array or template of) holds, a literal naming a database. */
  const naming = (node: ts.Node): boolean => {
    if (literal(node)) return names(node.text);
    if (ts.isTemplateExpression(node)) return names(node.head.text) || node.templateSpans.some((span) => names(span.literal.text));
    if (ts.isArrayLiteralExpression(node) || ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      return node.getChildren().some(naming);
    if (node.kind === ts.SyntaxKind.SyntaxList) return node.getChildren().some(naming);
    return false;
  };
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const report = (node: ts.Node, what: string): void => {
      found.push(
        `${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}: ${node.getText(source).slice(0, 120)}`,
      );
    };
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind) && (naming(node.left) || naming(node.right)))
        report(node, 'compares with a database name');
      else if (ts.isBinaryExpression(node) && DEFAULTS.has(node.operatorToken.kind) && naming(node.right))
        report(node, 'defaults to a database');
      else if (ts.isCaseClause(node) && naming(node.expression)) report(node.expression, 'a case of a database name');
      else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        MATCHING_METHODS.has(node.expression.name.text) &&
        (naming(node.expression.expression) || node.arguments.some(naming))
      )
        report(node, 'matches a database name');
      else if (
        ts.isRegularExpressionLiteral(node) &&
        names(node.text) &&
        !(ts.isPropertyAccessExpression(node.parent) && ts.isCallExpression(node.parent.parent))
      )
        report(node, 'a pattern of a database name');
      else if (
        ts.isPropertyAssignment(node) &&
        (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
        keys.includes(node.name.text.toLowerCase())
      )
        report(node.name, 'a table by database');
      const specifier =
        ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
          ? node.moduleSpecifier
          : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
            ? node.arguments[0]
            : undefined;
      if (specifier && ts.isStringLiteral(specifier) && /(^|\/)dialects\/(?!(index|dialect)\.js$)/.test(specifier.text))
        report(specifier, 'imports a dialect directly');
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
