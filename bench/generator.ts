/**
 * Timing `generate` (BENCHMARKS.md) as a user runs it, `npm run generate`: `node generator/launch.mjs
 * generate` (the generator compiled, docs/decisions.md §10; the first run in a copy compiles it) on
 * a copy of this project (node_modules linked), wall-clock milliseconds per run, process start
 * included. Cases on the demo: nothing changed; a resolver gains a query (code only); an entity
 * gains a column (a migration per database and both Prisma clients regenerated). At scale: a
 * synthetic application of 300 entities generated from an empty `generated/`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticEntities } from './synthetic.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Wall times of one case, in milliseconds. */
export interface GeneratorCase {
  readonly label: string;
  readonly runs: readonly number[];
  /** Stage timings of the last run (`generate --timings`). */
  readonly stages: string;
}

/** A copy of this project in a temporary folder (node_modules linked); `entities` replaced when given. */
function copyProject(entities?: (dir: string) => void): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-generate-'));
  for (const name of ['generator', 'runtime', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  if (entities) entities(path.join(dir, 'entities'));
  else for (const name of ['entities', 'generated']) cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs `generate` in `dir`; returns wall milliseconds and the stage line. Throws on failure. */
function timeGenerate(dir: string): { ms: number; stages: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(dir, 'generator/launch.mjs'), '--root', dir, 'generate', '--timings'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 600_000,
  });
  const ms = Math.round(performance.now() - started);
  if (result.status !== 0) throw new Error(`generate failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
  const stages = /timings \(ms\): (.*)/.exec(result.stderr)?.[1] ?? '';
  return { ms, stages };
}

/** Edits a file in place. */
function edit(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(file, after);
}

/** Times every case; `runs` runs of each demo case. */
export function measureGenerator(runs: number, log: (line: string) => void): GeneratorCase[] {
  const cases: GeneratorCase[] = [];
  const demo = copyProject();
  try {
    const repeat = (label: string, before: (run: number) => void): void => {
      const times: number[] = [];
      let stages = '';
      for (let run = 0; run < runs; run++) {
        before(run);
        const timed = timeGenerate(demo);
        times.push(timed.ms);
        stages = timed.stages;
      }
      log(`  generate, ${label}: ${times.join(', ')} ms`);
      cases.push({ label, runs: times, stages });
    };
    repeat('demo, nothing changed', () => undefined);
    repeat('demo, a resolver gains a query', (run) =>
      edit(path.join(demo, 'entities/notification.resolver.ts'), (text) =>
        text
          .replace('import { Authorized, McpTool, Query,', 'import { Authorized, McpTool, Public, Query,')
          .replace(
            /\n}\n*$/,
            `\n\n  /** Bench probe ${run}. */\n  @Query()\n  @Public()\n  benchProbe${run}(): string {\n    return 'probe';\n  }\n}\n`,
          ),
      ),
    );
    // A column named anew in every run of every bench: the generator's disk cache (node_modules/.cache)
    // holds the typed client of each OpenAPI document it has seen, and a user's new column is one it has not.
    const nonce = `${Date.now().toString(36)}${process.pid}`;
    repeat('demo, an entity gains a column', (run) =>
      edit(path.join(demo, 'entities/org.entity.ts'), (text) =>
        text.replace(/\n}\n*$/, `\n\n  /** Bench column ${run}. */\n  @Column()\n  benchColumn${run}${nonce}?: string | null;\n}\n`),
      ),
    );
  } finally {
    rmSync(demo, { recursive: true, force: true });
  }
  const synthetic = copyProject((entitiesDir) => writeSyntheticEntities(entitiesDir, 300));
  try {
    const timed = timeGenerate(synthetic);
    log(`  generate, 300 entities from scratch: ${timed.ms} ms`);
    cases.push({ label: '300 entities, from an empty generated/', runs: [timed.ms], stages: timed.stages });
  } finally {
    rmSync(synthetic, { recursive: true, force: true });
  }
  return cases;
}
