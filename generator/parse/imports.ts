/**
 * Imports of declaration files that resolve to nothing (docs/behaviour.md §7, build-time
 * failures). A class whose decorators come from a file that does not exist reads as undecorated,
 * and a decorator imported under a name its module does not export reads as no decorator: both
 * would be dropped from the model without a word. Recorded here, refused by the rules
 * `import-module-missing` and `import-name-unknown`.
 */
import path from 'node:path';
import type { DeclaredImportProblem } from '../model/declarations.js';
import { PACKAGE_NAME } from '../package.js';
import { type ProjectLayout, resolveModuleFile } from './project.js';
import { spanOf } from './references.js';
import { Node, type SourceFile, SyntaxKind } from './ts-morph.js';

/** `./x.js` for `file` as seen from `from`'s folder: how a declaration file imports another. */
function specifierOf(from: string, file: string): string {
  const relative = path.relative(path.dirname(from), file).split(path.sep).join('/').replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * The imports of `files` that resolve to nothing, in source order.
 *
 * Takes the layout and the declaration files (in a project holding them and the runtime files
 * they import); returns a problem for each relative (or `resource-service/…`) specifier naming no
 * file — except files under the output folder, which `generate` may not have written yet — and
 * for each name imported from a file of the project that the file does not export. A decorator
 * imported from the runtime under a name it lacks is left to `decorator-unknown`. Never throws.
 */
export function readImportProblems(layout: ProjectLayout, files: readonly SourceFile[]): DeclaredImportProblem[] {
  const problems: DeclaredImportProblem[] = [];
  const generatedPrefix = layout.generatedDir + path.sep;
  const runtimePrefix = layout.runtimeDir + path.sep;
  for (const file of files) {
    const from = file.getFilePath();
    let decoratorNames: Set<string> | undefined;
    for (const declaration of file.getImportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      const relative = specifier.startsWith('.');
      if (!relative && specifier !== PACKAGE_NAME && !specifier.startsWith(`${PACKAGE_NAME}/`)) continue;
      const target = resolveModuleFile(from, specifier);
      const span = spanOf(layout, declaration.getModuleSpecifier());
      const named = declaration.getNamedImports();
      if (target === undefined) {
        if (relative && path.resolve(path.dirname(from), specifier).startsWith(generatedPrefix)) continue;
        const candidates = files.filter((candidate) => candidate !== file).map((candidate) => specifierOf(from, candidate.getFilePath()));
        problems.push({ kind: 'module-missing', specifier, names: named.map((entry) => entry.getName()), candidates, span });
        continue;
      }
      const targetFile = file.getProject().getSourceFile(target);
      if (!targetFile) continue;
      for (const entry of named) {
        const symbol = entry.getNameNode().getSymbol();
        const aliased = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
        if (aliased && aliased.getDeclarations().length > 0) continue;
        if (target.startsWith(runtimePrefix)) {
          decoratorNames ??= new Set(
            file.getDescendantsOfKind(SyntaxKind.Decorator).flatMap((decorator) => {
              const callee = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
              return Node.isIdentifier(callee) ? [callee.getText()] : [];
            }),
          );
          if (decoratorNames.has(entry.getAliasNode()?.getText() ?? entry.getName())) continue;
        }
        problems.push({
          kind: 'name-missing',
          specifier,
          name: entry.getName(),
          candidates: [...targetFile.getExportedDeclarations().keys()].sort(),
          span: spanOf(layout, entry.getNameNode()),
        });
      }
    }
  }
  return problems;
}
