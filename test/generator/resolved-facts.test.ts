/**
 * Facts the resolve stage decides once and every rule and emitter reads (generator/resolve/index.ts):
 * which relations are on the wire (docs/behaviour.md §2.1) and which methods a request enters by
 * (docs/behaviour.md §5.9).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { ROOT } from '../support/project.js';

const resolveAt = (dir: string): ReturnType<typeof resolveApp> =>
  resolveApp(
    parseDeclarations({ root: dir, entitiesDir: dir, runtimeDir: path.join(ROOT, 'runtime'), generatedDir: path.join(dir, 'generated') }),
  );
const demo = resolveApp(
  parseDeclarations({
    root: ROOT,
    entitiesDir: path.join(ROOT, 'entities'),
    runtimeDir: path.join(ROOT, 'runtime'),
    generatedDir: path.join(ROOT, 'generated'),
  }),
);

describe('relations on the wire (docs/behaviour.md §2.1)', () => {
  it('are the relations written exposed on exposed entities, with their target and key', () => {
    const wire = demo.entities.flatMap((entity) =>
      entity.wireRelations.map((relation) =>
        relation.kind === 'manyToMany'
          ? `${entity.name}.${relation.name} → ${relation.target} through ${relation.through}.${relation.keyColumn} → ${relation.through}.${relation.targetColumn}`
          : `${entity.name}.${relation.name} → ${relation.target}.${relation.keyColumn}`,
      ),
    );
    const written = demo.entities
      .filter((entity) => entity.exposed)
      .flatMap((entity) => entity.relations.filter((relation) => relation.exposed).map((relation) => `${entity.name}.${relation.name}`));
    expect(wire.map((line) => line.split(' ')[0])).toEqual(written);
    expect(wire).toMatchInlineSnapshot(`
      [
        "Category.posts → Post through PostCategory.categoryId → PostCategory.postId",
        "Comment.post → Post.postId",
        "Org.users → User.orgId",
        "Post.author → User.authorId",
        "Post.categories → Category through PostCategory.postId → PostCategory.categoryId",
        "User.org → Org.orgId",
        "User.posts → Post.authorId",
        "User.reviews → Post.reviewerId",
      ]
    `);
  });

  it('leave out a relation whose target is not an entity', () => {
    const app = resolveAt(path.join(ROOT, 'test/errors/relation-target-unknown/invalid'));
    const exposed = app.entities.flatMap((entity) => entity.relations.filter((relation) => relation.exposed && !relation.targetKnown));
    expect(exposed.length).toBeGreaterThan(0);
    expect(app.entities.flatMap((entity) => entity.wireRelations).filter((relation) => exposed.includes(relation))).toEqual([]);
  });
});

describe('request entry points (docs/behaviour.md §5.9)', () => {
  it('list operations and computed fields, then routes, then message handlers, each with its method', () => {
    const entries = demo.mounted.requestEntryPoints.map((entry) => `${entry.kind} ${entry.name} (${entry.owner}.${entry.methodName})`);
    const kinds = demo.mounted.requestEntryPoints.map((entry) => entry.kind);
    expect(kinds.indexOf('route')).toBeGreaterThan(kinds.lastIndexOf('operation'));
    expect(kinds.lastIndexOf('route')).toBeLessThan(kinds.indexOf('message'));
    expect(entries).toContain('computedField Post.reviewerName (PostResolver.reviewerName)');
    expect(entries.filter((entry) => entry.startsWith('message '))).toMatchInlineSnapshot(`
      [
        "message message ping of EchoGateway (EchoGateway.ping)",
        "message message whoami of EchoGateway (EchoGateway.whoami)",
      ]
    `);
  });

  it('list the declared ones whether mounted or not, without the resources the generator writes', () => {
    expect(
      demo.requestEntryPoints.every(
        (entry) =>
          demo.resolvers.some((resolver) => resolver.name === entry.owner) ||
          demo.controllers.some((controller) => controller.name === entry.owner) ||
          demo.gateways.some((gateway) => gateway.name === entry.owner),
      ),
    ).toBe(true);
    expect(demo.mounted.requestEntryPoints.length).toBeGreaterThan(demo.requestEntryPoints.length);
  });
});
