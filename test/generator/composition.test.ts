/**
 * The schema is composed from every resolver of the modules reachable from AppModule, and from
 * nothing else (docs/behaviour.md §1: no central list of operations).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { planOutput } from '../../generator/pipeline.js';
import { ROOT } from '../support/project.js';

describe('schema composition', () => {
  it('takes operations from reachable modules only', async () => {
    const root = path.join(ROOT, 'test/fixtures/composition');
    const plan = await planOutput({
      root,
      entitiesDir: root,
      runtimeDir: path.join(ROOT, 'runtime'),
      generatedDir: path.join(root, 'generated'),
    });
    // Not served, and generate says so (a warning: the run goes on).
    expect(plan.diagnostics.map(formatHeadline)).toEqual([
      'app.ts:35:14 warning provider-unmounted: ArchiveResolver is listed by ArchiveModule, which no module reachable from AppModule imports, so its GraphQL fields are not served; add ArchiveModule to the imports of AppModule (app.ts:51)',
    ]);
    const sdl = plan.files.find((file) => file.path === 'schema.graphql')?.content ?? '';
    expect(sdl).toContain('  note(id: String!): Note\n');
    expect(sdl).not.toContain('archivedNotes');
    const resolvers = plan.files.find((file) => file.path === 'graphql/resolvers.ts')?.content ?? '';
    expect(resolvers).toContain('noteResolver.note(');
    expect(resolvers).not.toContain('archiveResolver');
  });
});
