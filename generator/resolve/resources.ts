/**
 * Resources, resolved (docs/behaviour.md §4.7): each `@Resource` entity's operations decided once —
 * which of the five are generated, the route and GraphQL field of each, the action it is
 * authorized with and whether it is public. Names written in `operations` or `public` that cannot
 * be honoured are kept for the rules that report them (resource-operation-unknown,
 * resource-public-not-generated).
 */
import type { DeclaredClass, DeclaredValue } from '../model/declarations.js';
import type { ResourceColumn } from '../../runtime/data/resource-input.js';
import type { ColumnModel, EntityModel, ResourceModel, ResourceNameModel, ResourceOperationKind, ResourceOperationModel } from '../model/model.js';
import { argumentAt, DecoratorSet, optionOf, stringOf } from './values.js';

/** The operations in the order they are generated. */
export const RESOURCE_OPERATIONS: readonly ResourceOperationKind[] = ['list', 'get', 'create', 'update', 'delete'];

const isOperation = (name: string): name is ResourceOperationKind => (RESOURCE_OPERATIONS as readonly string[]).includes(name);
const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** The names written in a list option, each with where it is written. */
function namesOf(value: DeclaredValue | undefined): ResourceNameModel[] {
  if (value?.kind !== 'array') return [];
  return value.items.flatMap((item) => (item.kind === 'string' ? [{ name: item.value, span: item.span }] : []));
}

/** Column `column` as an input reads it, or undefined when no input can carry its type. */
function inputColumnOf(column: ColumnModel, enumValues: ReadonlyMap<string, readonly string[]>): ResourceColumn | undefined {
  const { named } = column.type;
  if (column.type.list) return undefined;
  const base = { name: column.name, nullable: column.type.nullable, generated: column.primaryKey || column.default !== undefined, constraints: column.constraints };
  if (named.kind === 'enum') {
    const [first, ...rest] = enumValues.get(named.name) ?? [];
    return first === undefined ? undefined : { ...base, type: { enum: [first, ...rest] } };
  }
  if (named.kind !== 'scalar') return undefined;
  const types = { ID: 'string', String: 'string', Int: 'int', Float: 'float', Boolean: 'boolean', DateTime: 'datetime' } as const;
  return { ...base, type: types[named.name] };
}

/** The route, GraphQL field and action of one operation of entity `entity` at `fullPath`. */
function operationOf(kind: ResourceOperationKind, entity: string, path: string, fullPath: string, isPublic: boolean): ResourceOperationModel {
  const single = lowerFirst(entity);
  switch (kind) {
    case 'list':
      return { kind, action: 'read', public: isPublic, method: 'GET', fullPath, fieldName: lowerFirst(path), rootType: 'Query' };
    case 'get':
      return { kind, action: 'read', public: isPublic, method: 'GET', fullPath: `${fullPath}/:id`, fieldName: single, rootType: 'Query' };
    case 'create':
      return { kind, action: 'create', public: isPublic, method: 'POST', fullPath, fieldName: `create${entity}`, rootType: 'Mutation' };
    case 'update':
      return { kind, action: 'update', public: isPublic, method: 'PATCH', fullPath: `${fullPath}/:id`, fieldName: `update${entity}`, rootType: 'Mutation' };
    case 'delete':
      return { kind, action: 'delete', public: isPublic, method: 'DELETE', fullPath: `${fullPath}/:id`, fieldName: `delete${entity}`, rootType: 'Mutation' };
  }
}

/**
 * Resolves every `@Resource` entity (docs/behaviour.md §4.7).
 *
 * Takes the declared classes, the resolved entities by name and the values of each declared enum; returns one resource per entity
 * carrying `@Resource` (one written on a class that is not an entity is decorator-misplaced's), sorted by
 * name. `operations` defaults to all five; the list field is the path in camelCase
 * (`comments`), the others are named after the entity (`comment`, `createComment`, …).
 */
export function resolveResources(classes: readonly DeclaredClass[], entityByName: ReadonlyMap<string, EntityModel>, enumValues: ReadonlyMap<string, readonly string[]>): ResourceModel[] {
  const resources: ResourceModel[] = [];
  for (const cls of classes) {
    const decorator = new DecoratorSet(cls.decorators).first('Resource');
    const entity = cls.name === undefined ? undefined : entityByName.get(cls.name);
    if (!decorator || !entity) continue;
    const options = argumentAt(decorator, 0);
    const path = (stringOf(optionOf(options, 'path')) ?? '').replace(/^\/+|\/+$/g, '');
    const fullPath = `/${path}`;
    const operationsWritten = optionOf(options, 'operations');
    const written = operationsWritten === undefined ? RESOURCE_OPERATIONS.map((name) => ({ name, span: decorator.span })) : namesOf(operationsWritten);
    const chosen = new Set(written.flatMap((entry) => (isOperation(entry.name) ? [entry.name] : [])));
    const publicNames = namesOf(optionOf(options, 'public'));
    const publicChosen = new Set(publicNames.map((entry) => entry.name));
    resources.push({
      name: entity.name,
      entity,
      path,
      fullPath,
      version: stringOf(optionOf(options, 'version')),
      operations: RESOURCE_OPERATIONS.filter((kind) => chosen.has(kind)).map((kind) => operationOf(kind, entity.name, path, fullPath, publicChosen.has(kind))),
      inputColumns: entity.columns.flatMap((column) => (column.exposed && !column.primaryKey ? (inputColumnOf(column, enumValues) ?? []) : [])),
      unknownOperations: written.filter((entry) => !isOperation(entry.name)),
      unknownPublic: publicNames.filter((entry) => !isOperation(entry.name) || !chosen.has(entry.name)),
      span: decorator.span,
    });
  }
  return resources.sort((a, b) => a.name.localeCompare(b.name));
}
