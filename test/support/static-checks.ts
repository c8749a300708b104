/**
 * The type check and the type-aware lint of a project over one TypeScript program (docs/architecture.md
 * §6 "Hygiene is checked"). A command line for ./hygiene.ts, which runs it in a process of its own:
 * `tsx test/support/static-checks.ts <project> <tsconfig> <target>…` prints {@link StaticFindings} as JSON.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** What {@link collectStaticFindings} found: the compiler's diagnostics and ESLint's findings, one line each. */
export interface StaticFindings {
  /** `file:line:column TSnnnn message`, as `tsc --noEmit -p <tsconfig>` reports them. */
  readonly typeErrors: readonly string[];
  /** `file:line:column rule message`, as `eslint` reports them. */
  readonly lint: readonly string[];
  /** Every file ESLint linted, relative to `cwd`: a test names some so that a lint of nothing cannot pass. */
  readonly linted: readonly string[];
}

/**
 * Type-checks the project `tsconfig` (a path relative to `cwd`) as `tsc --noEmit -p` does, then lints
 * `targets` with the configuration of `cwd`, handing typescript-eslint that same program for the files
 * it holds instead of letting its project service build a second one (BENCHMARKS.md "The test suite");
 * files outside it (configuration files, untyped peers) keep the configuration's own parser options.
 * Throws when the tsconfig cannot be read or ESLint itself fails (a broken configuration).
 */
async function collectStaticFindings(cwd: string, tsconfig: string, targets: readonly string[]): Promise<StaticFindings> {
  const configPath = path.resolve(cwd, tsconfig);
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
      },
    },
  );
  if (config === undefined) throw new Error(`${configPath} could not be read`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: config.errors });
  const typeErrors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code} ${message}`;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${path.relative(cwd, diagnostic.file.fileName)}:${line + 1}:${character + 1} TS${diagnostic.code} ${message}`;
  });
  const eslint = new ESLint({
    cwd,
    overrideConfig: [
      {
        files: config.fileNames.map((file) => path.relative(cwd, file)),
        languageOptions: { parserOptions: { projectService: false, programs: [program] } },
      },
    ],
  });
  const report = await eslint.lintFiles([...targets]);
  const lint = report.flatMap((file) =>
    file.messages.map(
      (message) => `${path.relative(cwd, file.filePath)}:${message.line}:${message.column} ${message.ruleId ?? 'parse'} ${message.message}`,
    ),
  );
  return { typeErrors, lint, linted: report.map((file) => path.relative(cwd, file.filePath)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [cwd, tsconfig, ...targets] = process.argv.slice(2);
  if (cwd === undefined || tsconfig === undefined || targets.length === 0) {
    process.stderr.write('usage: tsx test/support/static-checks.ts <project> <tsconfig> <target>…\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(JSON.stringify(await collectStaticFindings(cwd, tsconfig, targets)));
  }
}
