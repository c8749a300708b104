/**
 * Loading declaration files into a ts-morph project built for speed: no lib files, no module
 * resolution into `node_modules`. The generator reads declarations syntactically and resolves
 * names through imports, so it never needs the type checker to evaluate library types.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Project, type SourceFile } from 'ts-morph';

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
 * Creates the project holding the declaration files and the runtime files they import.
 * `fileOrder` may reverse the order files are added in (determinism tests).
 */
export function loadDeclarationProject(layout: ProjectLayout, fileOrder: 'sorted' | 'reversed' = 'sorted'): { project: Project; declarationFiles: SourceFile[] } {
  const project = new Project({
    compilerOptions: { noLib: true, noResolve: true, experimentalDecorators: true, allowJs: false, skipLibCheck: true },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
  });
  const entityFiles = listTypeScriptFiles(layout.entitiesDir);
  const runtimeFiles = listTypeScriptFiles(layout.runtimeDir);
  const ordered = fileOrder === 'reversed' ? [...entityFiles].reverse() : entityFiles;
  const declarationFiles = ordered.map((file) => project.addSourceFileAtPath(file));
  for (const file of runtimeFiles) project.addSourceFileAtPath(file);
  return { project, declarationFiles: declarationFiles.sort((a, b) => a.getFilePath().localeCompare(b.getFilePath())) };
}
