/**
 * Loading declaration files into a ts-morph project built for speed: no lib files, no module
 * resolution into `node_modules`. The generator reads declarations syntactically and resolves
 * names through imports, so it never needs the type checker to evaluate library types. Imports of
 * the package by name (`resource-service`) resolve to the runtime's own declarations: its
 * sources in this repository, its `.d.ts` files in an installed package (generator/package.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageEntryFile, PACKAGE_NAME } from '../package.js';
import type Ts from 'typescript';
import { Project, type SourceFile } from './ts-morph.js';

/** Where things are, as absolute paths. */
export interface ProjectLayout {
  /** The project root (file names in diagnostics are relative to it). */
  readonly root: string;
  /** The declarations folder (`entities/`). */
  readonly entitiesDir: string;
  /**
   * The folder declaring the runtime's API, home of the decorators: `runtime/` (sources) or an
   * installed package's `dist/runtime/` (`.d.ts` files); generator/package.ts `RUNTIME_DIR`.
   */
  readonly runtimeDir: string;
  /** The output folder (`generated/`). */
  readonly generatedDir: string;
}

/** Lists the declaration files (`.ts`, not `.d.ts` nor `.test.ts`) under `dir` recursively, sorted (deterministic order); none when `dir` does not exist. */
export function listTypeScriptFiles(dir: string): string[] {
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

/**
 * The TypeScript file (`.ts`, or `.d.ts` in an installed package) a module specifier of the file
 * at `from` names, if it exists: a relative path, or this package by name through its `exports`.
 */
export function resolveModuleFile(from: string, specifier: string): string | undefined {
  const entry = packageEntryFile(specifier);
  if (entry !== undefined) return existsSync(entry) ? entry : undefined;
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [
    `${stem}.ts`,
    `${stem}.d.ts`,
    `${base}.ts`,
    `${base}.d.ts`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.d.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function resolveRelative(from: SourceFile, specifier: string): string | undefined {
  return resolveModuleFile(from.getFilePath(), specifier);
}

/** The package's entries by name, as compiler `paths`: how the checker follows `import … from 'resource-service'`. */
function packagePaths(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const specifier of [PACKAGE_NAME, `${PACKAGE_NAME}/runtime`, `${PACKAGE_NAME}/testing`]) {
    const file = packageEntryFile(specifier);
    if (file !== undefined) paths[specifier] = [file];
  }
  return paths;
}

/**
 * A project kept between runs of one process (`generate --watch`, `npm run dev`; docs/decisions.md
 * §10): the next run re-reads every declaration file but parses again only those whose text
 * changed, and keeps the runtime files, which a watch over `entities/` never sees change. One
 * per layout; never shared between layouts.
 */
export class DeclarationProjectCache {
  /** The project of the previous run, if any. */
  project: Project | undefined;
  /** The previous run's type-check program (generator/typecheck.ts), which the next one reuses unchanged files of. */
  typeProgram: Ts.Program | undefined;
}

/** A project with this generator's compiler options. */
function newProject(): Project {
  return new Project({
    compilerOptions: {
      noLib: true,
      noResolve: true,
      experimentalDecorators: true,
      allowJs: false,
      skipLibCheck: true,
      paths: packagePaths(),
    },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
  });
}

/**
 * The declaration file `file` in `project`: added, or — when a cached project has it — refreshed
 * from disk (parsed again only when its text changed).
 */
function declarationFile(project: Project, file: string): SourceFile {
  const existing = project.getSourceFile(file);
  if (!existing) return project.addSourceFileAtPath(file);
  existing.refreshFromFileSystemSync();
  return existing;
}

/**
 * Creates the project holding the declaration files and the runtime files they import (and the
 * runtime files those re-export from), nothing else: parsing every runtime file took longer than
 * reading the declarations. `fileOrder` may reverse the order files are added in (determinism
 * tests). With `cache`, the previous run's project is brought up to date instead (see
 * {@link DeclarationProjectCache}); declaration files that are gone are removed from it.
 */
export function loadDeclarationProject(
  layout: ProjectLayout,
  fileOrder: 'sorted' | 'reversed' = 'sorted',
  cache?: DeclarationProjectCache,
): { project: Project; declarationFiles: SourceFile[] } {
  const project = cache?.project ?? newProject();
  if (cache) cache.project = project;
  const entityFiles = listTypeScriptFiles(layout.entitiesDir);
  const ordered = fileOrder === 'reversed' ? [...entityFiles].reverse() : entityFiles;
  const entitiesPrefix = layout.entitiesDir + path.sep;
  const current = new Set(entityFiles);
  for (const sourceFile of project.getSourceFiles()) {
    const file = path.normalize(sourceFile.getFilePath());
    if (file.startsWith(entitiesPrefix) && !current.has(file)) project.removeSourceFile(sourceFile);
  }
  const declarationFiles = ordered.map((file) => declarationFile(project, file));
  const runtimePrefix = layout.runtimeDir + path.sep;
  const added = new Set<string>();
  const addRuntime = (file: string): void => {
    if (!file.startsWith(runtimePrefix) || added.has(file)) return;
    added.add(file);
    const sourceFile = project.getSourceFile(file) ?? project.addSourceFileAtPath(file);
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
