/**
 * What callers read (docs/guide/declaring.md "Descriptions on the wire"): OpenAPI tags come from `@ApiTags` or
 * the controller's path, never its class name; summaries and descriptions from `@ApiOperation` or
 * the caller-facing sections of docstrings (the summary section and `@remarks`), never from
 * `@privateRemarks`, which stays in the developer-facing output (generated code, Prisma schema).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { planOutput } from '../../generator/pipeline.js';
import { ROOT } from '../support/project.js';

describe('tags and descriptions of a generated application', async () => {
  const root = path.join(ROOT, 'test/fixtures/openapi-text');
  const plan = await planOutput({
    root,
    entitiesDir: root,
    runtimeDir: path.join(ROOT, 'runtime'),
    generatedDir: path.join(root, 'generated'),
  });
  const file = (name: string): string => plan.files.find((candidate) => candidate.path === name)?.content ?? '';
  type Operation = { tags: string[]; summary?: string; description?: string };
  type Document = {
    tags: { name: string; description?: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> };
  };
  const document = (name: string): Document => JSON.parse(file(`openapi/${name}.json`)) as Document;

  it('generates without diagnostics', () => {
    expect(plan.diagnostics.map(formatHeadline)).toEqual([]);
  });

  it('tags operations with @ApiTags (each once), else with the controller path; never the class name', () => {
    const aggregate = document('openapi');
    expect(aggregate.paths['/v1/notes']?.get?.tags).toEqual(['Notes', 'Writing']);
    expect(aggregate.paths['/admin/audit']?.get?.tags).toEqual(['admin/audit']);
    // Two controllers at the empty path, one per version, share the tag `root`.
    expect(aggregate.paths['/v1']?.get?.tags).toEqual(['root']);
    expect(aggregate.paths['/v2']?.get?.tags).toEqual(['root']);
    expect(aggregate.tags.map((tag) => tag.name)).toEqual(['admin/audit', 'Notes', 'root', 'Writing']);
  });

  it('describes a tag by the caller-facing docstrings of the controllers the document describes', () => {
    const describe = (name: string, tag: string) => document(name).tags.find((candidate) => candidate.name === tag)?.description;
    expect(describe('v1', 'root')).toBe("Version 1's entry point.");
    expect(describe('v2', 'root')).toBe("Version 2's entry point.");
    expect(describe('openapi', 'root')).toBe("Version 1's entry point.\n\nVersion 2's entry point.");
    expect(describe('openapi', 'Notes')).toBe('Notes and their writing.');
    expect(describe('openapi', 'Writing')).toBe('Notes and their writing.');
    expect(document('openapi').tags.find((tag) => tag.name === 'admin/audit')).toEqual({ name: 'admin/audit' });
  });

  it("summarises an operation by its docstring's first sentence, or as @ApiOperation declares", () => {
    const paths = document('v2').paths;
    expect(paths['/v2/notes']?.get).toMatchObject({
      summary: "One page of the caller's notes, oldest first.",
      description: 'Each page names the next in `x-next-cursor`;\nsee the note schema.',
    });
    // A declared summary leaves the whole docstring to the description.
    expect(paths['/v2/notes/{id}']?.get).toMatchObject({
      summary: 'Reads a note',
      description: 'One note by id, e.g. the newest. Answers 404 when the caller may not read it.',
    });
    const audit = document('openapi').paths['/admin/audit']?.get;
    expect(audit?.summary).toBeUndefined();
    expect(audit?.description).toBe('Whether auditing is on.');
  });

  it('carries @remarks to the wire and keeps @privateRemarks off it', () => {
    const note = document('openapi').components.schemas.Note;
    expect(note?.description).toBe(
      "A note someone wrote.\n\nNotes are private to their author.\n\nFields the caller's grant excludes are omitted.",
    );
    expect(note?.properties?.text?.description).toBe('The text, as written.');
    const sdl = file('schema.graphql');
    expect(sdl).toContain('A note someone wrote.\n\nNotes are private to their author.\n"""\ntype Note {');
    expect(sdl).toContain('"""One note by id, or null."""\n  note(id: String!): Note');
    for (const text of [
      ...Object.values(plan.files)
        .filter((candidate) => /^openapi\/.*\.json$/.test(candidate.path))
        .map((candidate) => candidate.content),
      sdl,
    ]) {
      expect(text).not.toMatch(
        /spec §|docs\/|behaviour\.md|decisions\.md|PRODUCT\.md|issue \d|LIST_CAP|NoteRepository|Nothing for callers/,
      );
    }
  });

  it('keeps @privateRemarks for developers: in the generated code and the Prisma schema', () => {
    expect(file('prisma/sqlite/schema.prisma')).toContain('/// Internal: see docs/behaviour.md §2.1 and LIST_CAP.');
    expect(file('http/routes.ts')).toContain('A keyset page (docs/behaviour.md §4.2).');
  });
});
