/**
 * Loading declaration files into a ts-morph project built for speed: no lib files, no module
 * resolution into `node_modules`. The generator reads declarations syntactically and resolves
 * names through imports, so it never needs the type checker to evaluate library types.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Project, type SourceFile } from './ts-morph.js';

/** Where things are, as absolute paths. */
export interface ProjectLayout {
  /** The project root (file names in diagnostics are relative to it). */
  readonly root: string;
  /** The declarations folder (`entities/`). */
  readonly entitiesDir: string;
  /** The runtime library folder (`runtime/`), home of the decorators. */
  readonly runtimeDir: string;
  /** The output folder (`generated/`). */
  readonly generatedDir: string;
}

/** Lists `.ts` files under `dir` recursively, sorted (deterministic order). */
function listTypeScriptFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'node_modules') walk(full);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')) {
        out.push(full);
      }
    }
  };
  walk(dir);
  return out;
}

/** The `.ts` file a relative module specifier of `from` names, if it exists. */
function resolveRelative(from: SourceFile, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from.getFilePath()), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/**
 * Creates the project holding the declaration files and the runtime files they import (and the
 * runtime files those re-export from), nothing else: parsing every runtime file took longer than
 * reading the declarations. `fileOrder` may reverse the order files are added in (determinism tests).
 */
export function loadDeclarationProject(layout: ProjectLayout, fileOrder: 'sorted' | 'reversed' = 'sorted'): { project: Project; declarationFiles: SourceFile[] } {
  const project = new Project({
    compilerOptions: { noLib: true, noResolve: true, experimentalDecorators: true, allowJs: false, skipLibCheck: true },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
  });
  const entityFiles = listTypeScriptFiles(layout.entitiesDir);
  const ordered = fileOrder === 'reversed' ? [...entityFiles].reverse() : entityFiles;
  const declarationFiles = ordered.map((file) => project.addSourceFileAtPath(file));
  const runtimePrefix = layout.runtimeDir + path.sep;
  const added = new Set<string>();
  const addRuntime = (file: string): void => {
    if (!file.startsWith(runtimePrefix) || added.has(file)) return;
    added.add(file);
    const sourceFile = project.addSourceFileAtPath(file);
    // A runtime file's own imports are not needed to resolve its exports, only what it re-exports.
    for (const declaration of sourceFile.getExportDeclarations()) {
      const target = resolveRelative(sourceFile, declaration.getModuleSpecifierValue() ?? '');
      if (target) addRuntime(target);
    }
  };
  const runtimeImports = new Set<string>();
  for (const sourceFile of declarationFiles) {
    for (const declaration of [...sourceFile.getImportDeclarations(), ...sourceFile.getExportDeclarations()]) {
      const target = resolveRelative(sourceFile, declaration.getModuleSpecifierValue() ?? '');
      if (target?.startsWith(runtimePrefix)) runtimeImports.add(target);
    }
  }
  for (const file of [...runtimeImports].sort()) addRuntime(file);
  return { project, declarationFiles: declarationFiles.sort((a, b) => a.getFilePath().localeCompare(b.getFilePath())) };
}
