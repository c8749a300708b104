/**
 * Generated text speaks of the application's own entities (docs/behaviour.md §4.7): the golden
 * applications that are not the demo (test/golden/<case>) are generated, and no file of their
 * output — code and its docstrings, the SDL, the OpenAPI documents, the MCP tools' descriptions,
 * the Prisma schemas — names an entity, a relation or a role of this repository's demo that the
 * application's own declarations do not name. The demo's vocabulary is read from the demo itself,
 * so a demo entity added later is covered too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { planOutput } from '../../generator/pipeline.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { layoutAt, ROOT } from '../support/project.js';

const GOLDEN = path.join(ROOT, 'test/golden');

/** The demo's roles and the words of its seed and examples, which no entity or relation name carries. */
const DEMO_WORDS = ['admin', 'member', 'viewer', 'acme', 'draft', 'drafts'];

/** Names of demo entities that are also plain words the generated code uses in their own sense: a hash's `digest`. */
const PLAIN_WORDS = new Set(['digest']);

/**
 * The words of a text, lower-cased: its identifiers split at each capital (`orgId` → `org`, `id`),
 * each run of letters one word. Words written all in capitals (`POST`, `BAD_USER_INPUT`) are
 * constants and HTTP methods, not prose; so are the HTTP methods that key an OpenAPI path item
 * (`"post":`) and its type in the typed client (`post?:`).
 */
function wordsOf(text: string): string[] {
  return text
    .replace(/"(?:get|put|post|patch|delete|head|options)":|\b(?:get|put|post|patch|delete|head|options)\??:/g, ' ')
    .split(/[^A-Za-z]+/)
    .flatMap((run) => (/^[A-Z]{2,}$/.test(run) ? [] : (run.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [])))
    .filter((word) => !/^[A-Z]{2,}$/.test(word))
    .map((word) => word.toLowerCase());
}

/** Every file under `dir`, as its text. */
function textsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? textsUnder(full) : [readFileSync(full, 'utf8')];
  });
}

/** The demo's own names: each entity's (and its plural) and each relation's, lower-cased, one word each. */
const demoVocabulary = (() => {
  const demo = resolveApp(parseDeclarations(layoutAt(ROOT)));
  const names = demo.entities.flatMap((entity) => [entity.name, `${entity.name}s`, ...entity.relations.map((relation) => relation.name)]);
  const words = names.filter((name) => /^[A-Z]?[a-z]+$/.test(name)).map((name) => name.toLowerCase());
  return new Set([...words, ...DEMO_WORDS].filter((word) => !PLAIN_WORDS.has(word)));
})();

describe("generated text names only the application's own entities", () => {
  it('reads the demo vocabulary from the demo', () => {
    expect([...demoVocabulary]).toEqual(expect.arrayContaining(['org', 'orgs', 'user', 'post', 'posts', 'author', 'comment', 'viewer']));
  });

  const cases = readdirSync(GOLDEN)
    .filter((name) => statSync(path.join(GOLDEN, name)).isDirectory())
    .sort();
  it('has golden applications other than the demo, one of them with resources and none of the demo words', () => {
    expect(cases).toEqual(expect.arrayContaining(['library', 'notebook']));
  });

  for (const name of cases) {
    it(`holds for test/golden/${name}`, async () => {
      const root = path.join(GOLDEN, name);
      const plan = await planOutput(layoutAt(root));
      expect(plan.diagnostics.map(formatHeadline)).toEqual([]);
      // What the application says of itself may be said back to it; what only the demo says may not.
      const own = new Set(textsUnder(path.join(root, 'entities')).flatMap(wordsOf));
      const foreign = [...demoVocabulary].filter((word) => !own.has(word));
      expect(foreign.length).toBeGreaterThan(0);
      const outputs = [
        ...plan.files.map((file) => ({ path: file.path, content: file.content })),
        ...Object.entries(plan.migrations).map(([database, migration]) => ({
          path: `${database}/${migration.name}`,
          content: migration.script,
        })),
      ];
      const found = outputs.flatMap((file) =>
        file.content.split('\n').flatMap((line, index) => {
          const words = new Set(wordsOf(line));
          return foreign.filter((word) => words.has(word)).map((word) => `${file.path}:${index + 1} '${word}': ${line.trim()}`);
        }),
      );
      expect(found).toEqual([]);
    });
  }
});
