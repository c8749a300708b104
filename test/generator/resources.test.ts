/**
 * Resources resolved (docs/behaviour.md §4.7; generator/resolve/resources.ts): each `@Resource`
 * entity's operations decided once — route, GraphQL field, action, public — and the columns its
 * inputs take, with their constraints.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { validate } from '../../generator/validate/index.js';
import { ROOT } from '../support/project.js';

const dir = path.join(ROOT, 'test/fixtures/resources');
const app = resolveApp(
  parseDeclarations({ root: dir, entitiesDir: dir, runtimeDir: path.join(ROOT, 'runtime'), generatedDir: path.join(dir, 'generated') }),
);

describe('@Resource, resolved (docs/behaviour.md §4.7)', () => {
  it('is a valid declaration', () => {
    expect(validate(app).map(formatHeadline)).toEqual([]);
  });

  it('generates all five operations by default, each with its route, field and action', () => {
    const comment = app.resources.find((resource) => resource.name === 'Comment');
    expect(comment?.version).toBe('2');
    expect(
      comment?.operations.map((operation) => [
        operation.kind,
        operation.action,
        `${operation.method} ${operation.fullPath}`,
        `${operation.rootType}.${operation.fieldName}`,
        operation.public,
      ]),
    ).toEqual([
      ['list', 'read', 'GET /comments', 'Query.comments', false],
      ['get', 'read', 'GET /comments/:id', 'Query.comment', false],
      ['create', 'create', 'POST /comments', 'Mutation.createComment', false],
      ['update', 'update', 'PATCH /comments/:id', 'Mutation.updateComment', false],
      ['delete', 'delete', 'DELETE /comments/:id', 'Mutation.deleteComment', false],
    ]);
  });

  it('keeps the chosen operations in their order, public only where named', () => {
    const tag = app.resources.find((resource) => resource.name === 'Tag');
    expect(tag?.operations.map((operation) => [operation.kind, operation.public])).toEqual([
      ['list', true],
      ['get', false],
    ]);
  });

  it('derives the input columns: exposed, not the key, typed, with their constraints', () => {
    const comment = app.resources.find((resource) => resource.name === 'Comment');
    expect(comment?.inputColumns).toEqual([
      { name: 'orgId', type: 'string', nullable: false, generated: false, constraints: {} },
      { name: 'body', type: 'string', nullable: false, generated: false, constraints: { maxLength: 2000, minLength: 1 } },
      { name: 'contact', type: 'string', nullable: true, generated: false, constraints: { format: 'email', pattern: '@example\\.com$' } },
      { name: 'stars', type: 'int', nullable: false, generated: true, constraints: { min: 0, max: 5 } },
      { name: 'tone', type: { enum: ['plain', 'loud'] }, nullable: false, generated: true, constraints: {} },
    ]);
  });
});
