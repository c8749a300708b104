/**
 * The hygiene tools as the tests run them (docs/architecture.md §6 "Hygiene is checked"): each in its own process, as `npm run lint`
 * would, with its findings as one line each (`file:line:column rule message`) so that a failing
 * test lists them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './project.js';

/** One message of ESLint's JSON report. */
interface EslintMessage {
  readonly ruleId: string | null;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** ESLint's JSON report: one entry per linted file. */
type EslintReport = readonly { readonly filePath: string; readonly messages: readonly EslintMessage[] }[];

/**
 * Runs ESLint with the configuration of `cwd` over `targets` (paths relative to `cwd`); returns every
 * finding, errors and warnings alike. Throws when ESLint itself fails (a broken configuration).
 */
export function eslintFindings(cwd: string, targets: readonly string[]): string[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', ...targets], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  // Exit 1 means findings; anything else without a report is ESLint failing to run.
  if (result.status !== 0 && result.status !== 1) throw new Error(`eslint exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  const report = JSON.parse(result.stdout) as EslintReport;
  return report.flatMap((file) =>
    file.messages.map((message) => `${path.relative(cwd, file.filePath)}:${message.line ?? 0}:${message.column ?? 0} ${message.ruleId ?? 'parse'} ${message.message}`),
  );
}

/**
 * Runs knip (knip.config.ts) in `cwd`; returns its findings, one line each: files nothing reaches,
 * exports and types nothing imports, dependencies nothing uses, and configuration hints. Empty when
 * knip exits 0. Throws when knip itself fails (exit 2: a broken configuration).
 */
export function knipFindings(cwd: string): string[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/knip/bin/knip.js'), '--no-progress', '--reporter', 'compact', '--treat-config-hints-as-errors'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  if (result.status === 0) return [];
  if (result.status !== 1) throw new Error(`knip exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  const findings = `${result.stdout}${result.stderr}`.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('npm warn'));
  // The compact reporter prints no configuration hint, though they fail the run: a failure with
  // nothing printed is still one.
  return findings.length > 0 ? findings : ['knip failed without a finding the compact reporter prints: run `npx knip --treat-config-hints-as-errors` for its configuration hints'];
}

/**
 * The import cycles among the TypeScript modules under `dir` (madge over the TypeScript compiler's
 * view of imports, `import type` included: a type-only cycle still says a declaration sits in the
 * wrong module). Each cycle is written `a.ts → b.ts → a.ts`, paths relative to `dir`.
 */
export async function importCycles(dir: string): Promise<string[]> {
  const { default: madge } = await import('madge');
  const graph = await madge(dir, {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return graph.circular().map((cycle) => [...cycle, cycle[0]].join(' → '));
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
const MATCHING_METHODS = new Set(['startsWith', 'endsWith', 'includes', 'indexOf', 'match', 'matchAll', 'test', 'search', 'replace', 'replaceAll', 'split', 'localeCompare', 'has', 'get']);

/** Operators comparing two values. */
const COMPARISONS = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

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
    if (ts.isArrayLiteralExpression(node) || ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return node.getChildren().some(naming);
    if (node.kind === ts.SyntaxKind.SyntaxList) return node.getChildren().some(naming);
    return false;
  };
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const report = (node: ts.Node, what: string): void => {
      found.push(`${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}: ${node.getText(source).slice(0, 120)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind) && (naming(node.left) || naming(node.right))) report(node, 'compares with a database name');
      else if (ts.isBinaryExpression(node) && DEFAULTS.has(node.operatorToken.kind) && naming(node.right)) report(node, 'defaults to a database');
      else if (ts.isCaseClause(node) && naming(node.expression)) report(node.expression, 'a case of a database name');
      else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MATCHING_METHODS.has(node.expression.name.text) && (naming(node.expression.expression) || node.arguments.some(naming))) report(node, 'matches a database name');
      else if (ts.isRegularExpressionLiteral(node) && names(node.text) && !(ts.isPropertyAccessExpression(node.parent) && ts.isCallExpression(node.parent.parent))) report(node, 'a pattern of a database name');
      else if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && keys.includes(node.name.text.toLowerCase())) report(node.name, 'a table by database');
      const specifier = ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword ? node.arguments[0] : undefined;
      if (specifier && ts.isStringLiteral(specifier) && /(^|\/)dialects\/(?!(index|dialect)\.js$)/.test(specifier.text)) report(specifier, 'imports a dialect directly');
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
