/**
 * Generated output (docs/architecture.md §6): golden files per case under `test/golden/<case>/`
 * (`entities/` in, `expected/` out, rewritten only with `UPDATE_GOLDEN=1`), determinism
 * (same input, byte-identical output, whatever order files are read in). The demo's generated
 * tree is type-checked with the whole project in test/project/hygiene.test.ts.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { ImportSet } from '../../generator/emit/writer.js';
import { type PlannedOutput, planOutput } from '../../generator/pipeline.js';
import { layoutAt, ROOT } from '../support/project.js';

const GOLDEN = path.join(ROOT, 'test/golden');
const update = process.env.UPDATE_GOLDEN === '1';

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full).split(path.sep).join('/')];
    });
}

/** Every output file of a plan, migrations included, as path → content. */
function outputOf(plan: PlannedOutput): Map<string, string> {
  const files = new Map(plan.files.map((file) => [file.path, file.content]));
  for (const [provider, migration] of Object.entries(plan.migrations))
    files.set(`prisma/${provider}/migrations/${migration.name}/migration.sql`, migration.script);
  return files;
}

describe('golden output', () => {
  for (const name of readdirSync(GOLDEN).sort()) {
    it(`matches test/golden/${name}/expected`, async () => {
      const root = path.join(GOLDEN, name);
      const plan = await planOutput(layoutAt(root));
      expect(plan.diagnostics.map(formatHeadline)).toEqual([]);
      const output = outputOf(plan);
      const expectedDir = path.join(root, 'expected');
      if (update) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const [file, content] of output) {
          mkdirSync(path.dirname(path.join(expectedDir, file)), { recursive: true });
          writeFileSync(path.join(expectedDir, file), content);
        }
      }
      expect([...output.keys()].sort()).toEqual(listFiles(expectedDir));
      for (const [file, content] of output) expect(content, file).toBe(readFileSync(path.join(expectedDir, file), 'utf8'));
    });
  }
});

describe('import specifiers', () => {
  it('name the runtime by the package, and project files by the layout alone, whatever the working directory', () => {
    const original = process.cwd();
    const specifiers: string[] = [];
    try {
      for (const cwd of ['/', ROOT, path.join(ROOT, 'test/golden')]) {
        process.chdir(cwd);
        const imports = new ImportSet('generated/app.ts');
        imports.type('runtime/server/server.ts', 'ApplicationDefinition');
        imports.value('runtime/transports/rest/index.ts', 'restRoutes');
        imports.value('entities/user.entity.ts', 'User');
        specifiers.push(imports.render().join('\n'));
      }
    } finally {
      process.chdir(original);
    }
    expect(specifiers[0]).toBe(
      [
        "import type { ApplicationDefinition } from 'resource-service/runtime';",
        "import { restRoutes } from 'resource-service/transports/rest';",
        "import { User } from '../entities/user.entity.js';",
      ].join('\n'),
    );
    expect(new Set(specifiers).size).toBe(1);
  });
});

describe('determinism', () => {
  it('emits byte-identical output whatever order declaration files are read in', async () => {
    const layout = layoutAt(ROOT, path.join(ROOT, 'test/.scratch-never-written'));
    const sorted = outputOf(await planOutput(layout, 'sorted'));
    const reversed = outputOf(await planOutput(layout, 'reversed'));
    expect([...reversed.keys()]).toEqual([...sorted.keys()]);
    for (const [file, content] of sorted) expect(reversed.get(file), file).toBe(content);
  });

  it('emits no timestamps, absolute paths or CRLF, and ends every file with one newline', async () => {
    const plan = await planOutput(layoutAt(ROOT));
    for (const file of plan.files) {
      expect(file.content, file.path).not.toContain(ROOT);
      expect(file.content, file.path).not.toContain('\r');
      expect(file.content, file.path).not.toContain(new Date().toISOString().slice(0, 10));
      expect(file.content.endsWith('\n') && !file.content.endsWith('\n\n'), file.path).toBe(true);
    }
  });
});
