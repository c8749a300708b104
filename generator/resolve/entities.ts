/**
 * Entities, columns and relations, resolved (docs/behaviour.md §2, §2.6; docs/decisions.md §2): defaults applied, key
 * columns typed `ID`, how each entity is keyed (one `id`, or a composite key on an unexposed one),
 * and the key every has_many follows decided once — the `via` column, or the
 * child's only key to the parent — together with why not when it cannot be (`HasManyKey`); likewise
 * the two keys of the join entity every many_to_many follows (`JoinKeys`). The Prisma
 * back-relations (`inverses`) come from the same decision.
 */
import type { DeclaredClass, DeclaredField, DeclaredValue } from '../model/declarations.js';
import type {
  BelongsToModel,
  ColumnConstraints,
  ColumnModel,
  EntityModel,
  HasManyKey,
  HasManyModel,
  InverseModel,
  JoinKeys,
  ManyToManyModel,
  RelationModel,
  UniqueModel,
  WireRelationModel,
} from '../model/model.js';
import type { SourceRef, SourceSpan, TypeShape } from '../model/types.js';
import { deprecationOf } from './deprecation.js';
import type { NamedClass } from './operations.js';
import { argumentAt, booleanOf, DecoratorSet, expressionOf, numberOf, optionKeySpan, optionOf, stringOf, thunkTarget } from './values.js';

/** A relation as written, before its target and key are looked up. */
interface WrittenRelation {
  readonly kind: RelationModel['kind'];
  readonly field: DeclaredField;
  readonly target: { readonly name: string; readonly span: SourceSpan } | undefined;
  readonly options: DeclaredValue | undefined;
}

/** An entity class with its columns read and its relations as written. */
interface WrittenEntity {
  readonly cls: NamedClass;
  readonly exposed: boolean;
  readonly columns: readonly ColumnModel[];
  readonly relations: readonly WrittenRelation[];
  readonly uniques: readonly UniqueModel[];
}

/** A node under construction (resolve fills in fields decided later, before returning). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const ID_TYPE = (type: TypeShape): TypeShape =>
  type.named.kind === 'scalar' && type.named.name === 'String' ? { ...type, named: { kind: 'scalar', name: 'ID' } } : type;

/** The constraints written in a column's options, each only when written with a value of its kind (docs/behaviour.md §4.7). */
function constraintsOf(options: DeclaredValue | undefined): ColumnConstraints {
  const numbers = Object.fromEntries(
    (['maxLength', 'minLength', 'min', 'max'] as const).flatMap((key) => {
      const value = numberOf(optionOf(options, key));
      return value === undefined ? [] : [[key, value]];
    }),
  ) as Pick<ColumnConstraints, 'maxLength' | 'minLength' | 'min' | 'max'>;
  const pattern = stringOf(optionOf(options, 'pattern'));
  const format = stringOf(optionOf(options, 'format'));
  return { ...numbers, ...(pattern === undefined ? {} : { pattern }), ...(format === 'email' ? { format } : {}) };
}

function readColumn(field: DeclaredField, decorators: DecoratorSet): ColumnModel {
  const options = argumentAt(decorators.first('Column'), 0);
  const written = optionOf(options, 'default');
  return {
    kind: 'column',
    name: field.name,
    type: field.type,
    primaryKey: decorators.has('PrimaryKey'),
    key: false,
    unique: booleanOf(optionOf(options, 'unique')) ?? false,
    default: written?.kind === 'string' || written?.kind === 'number' || written?.kind === 'boolean' ? written.value : undefined,
    exposed: booleanOf(optionOf(options, 'exposed')) ?? true,
    constraints: constraintsOf(options),
    filterable: decorators.has('Filterable'),
    deprecation: deprecationOf(optionOf(options, 'deprecationReason'), field.deprecated),
    doc: field.doc,
    description: field.description,
    span: field.span,
  };
}

/** Each kind of relation and the decorator that declares it. */
const RELATION_DECORATORS = [
  ['belongsTo', 'BelongsTo'],
  ['hasMany', 'HasMany'],
  ['manyToMany', 'ManyToMany'],
] as const satisfies readonly (readonly [RelationModel['kind'], string])[];

function readEntity(cls: NamedClass): WrittenEntity {
  const classDecorators = new DecoratorSet(cls.decorators);
  const columns: ColumnModel[] = [];
  const relations: WrittenRelation[] = [];
  for (const field of cls.fields) {
    const decorators = new DecoratorSet(field.decorators);
    if (decorators.has('PrimaryKey') || decorators.has('Column')) columns.push(readColumn(field, decorators));
    for (const [kind, name] of RELATION_DECORATORS) {
      const decorator = decorators.first(name);
      if (decorator) relations.push({ kind, field, target: thunkTarget(argumentAt(decorator, 0)), options: argumentAt(decorator, 1) });
    }
  }
  // Keys are IDs on the wire: the primary key and every belongs_to column. A composite key's columns
  // are the row's own values (a join table's keys are its belongs_to columns; any other keeps its type).
  const keyNames = new Set(
    relations.flatMap((relation) => (relation.kind === 'belongsTo' ? (stringOf(optionOf(relation.options, 'column')) ?? []) : [])),
  );
  const singleKey = columns.filter((column) => column.primaryKey).length === 1;
  const keyed = columns.map((column) =>
    (column.primaryKey && singleKey) || keyNames.has(column.name) ? { ...column, key: true, type: ID_TYPE(column.type) } : column,
  );
  const uniques = classDecorators.every('Unique').map((unique) => ({
    columns: unique.arguments.flatMap((argument) => (argument.kind === 'string' ? [argument.value] : [])),
    span: unique.span,
  }));
  return {
    cls,
    exposed: booleanOf(optionOf(argumentAt(classDecorators.first('Entity'), 0), 'exposed')) ?? true,
    columns: keyed,
    relations,
    uniques,
  };
}

/** Every entity's belongs_to relations, by entity name, in declared order; `inverse` is filled in later. */
function resolveBelongsTo(written: readonly WrittenEntity[], names: ReadonlySet<string>): Map<string, Mutable<BelongsToModel>[]> {
  const belongsTo = new Map<string, Mutable<BelongsToModel>[]>();
  for (const entity of written) {
    const columns = new Map(entity.columns.map((column) => [column.name, column]));
    const relations: Mutable<BelongsToModel>[] = [];
    for (const relation of entity.relations) {
      if (relation.kind !== 'belongsTo') continue;
      const columnValue = optionOf(relation.options, 'column');
      const columnName = stringOf(columnValue);
      const column = columnName === undefined ? undefined : columns.get(columnName);
      relations.push({
        kind: 'belongsTo',
        name: relation.field.name,
        entity: entity.cls.name,
        target: relation.target?.name,
        targetKnown: relation.target !== undefined && names.has(relation.target.name),
        targetSpan: relation.target?.span,
        keyColumn: columnName,
        keyColumnSpan: columnValue?.span,
        keyColumnKnown: column !== undefined,
        optional: column?.type.nullable ?? false,
        inverse: undefined,
        exposed: booleanOf(optionOf(relation.options, 'exposed')) ?? false,
        viaSpan: optionKeySpan(relation.options, 'via'),
        complexity: expressionOf(optionOf(relation.options, 'complexity')),
        complexitySpan: optionOf(relation.options, 'complexity')?.span,
        deprecation: deprecationOf(optionOf(relation.options, 'deprecationReason'), relation.field.deprecated),
        doc: relation.field.doc,
        description: relation.field.description,
        span: relation.field.span,
      });
    }
    belongsTo.set(entity.cls.name, relations);
  }
  return belongsTo;
}

/**
 * The key a has_many of `parent` pointing at `target` follows: the belongs_to of `target` named by
 * `via` when written, else its only key to `parent` — or why there is none.
 */
function hasManyKey(
  belongsTo: ReadonlyMap<string, readonly BelongsToModel[]>,
  parent: string,
  target: string | undefined,
  via: string | undefined,
  viaWritten: boolean,
): HasManyKey {
  const childKeys = target === undefined ? undefined : belongsTo.get(target);
  if (!childKeys) return { kind: 'unknown' };
  // A key whose target or column is itself unknown might be the one meant: say nothing about it.
  if (childKeys.some((key) => !key.targetKnown || (key.target === parent && !key.keyColumnKnown))) return { kind: 'unknown' };
  const candidates = childKeys.filter((key) => key.target === parent);
  if (viaWritten) {
    if (via === undefined) return { kind: 'unknown' };
    const followed = candidates.find((key) => key.keyColumn === via);
    return followed ? { kind: 'resolved', key: followed } : { kind: 'viaUnknown', candidates };
  }
  const [only, ...others] = candidates;
  if (!only) return { kind: 'missing' };
  return others.length === 0 ? { kind: 'resolved', key: only } : { kind: 'ambiguous', candidates };
}

/** A has_many as written on `entity`, with the key it follows decided. */
function resolveHasMany(
  entity: WrittenEntity,
  relation: WrittenRelation,
  names: ReadonlySet<string>,
  belongsTo: ReadonlyMap<string, readonly BelongsToModel[]>,
): HasManyModel {
  const via = optionOf(relation.options, 'via');
  const key = hasManyKey(belongsTo, entity.cls.name, relation.target?.name, stringOf(via), via !== undefined);
  return {
    kind: 'hasMany',
    name: relation.field.name,
    entity: entity.cls.name,
    target: relation.target?.name,
    targetKnown: relation.target !== undefined && names.has(relation.target.name),
    targetSpan: relation.target?.span,
    via: stringOf(via),
    viaSpan: via?.span,
    key,
    keyColumn: key.kind === 'resolved' ? key.key.keyColumn : undefined,
    exposed: booleanOf(optionOf(relation.options, 'exposed')) ?? false,
    complexity: expressionOf(optionOf(relation.options, 'complexity')),
    complexitySpan: optionOf(relation.options, 'complexity')?.span,
    deprecation: deprecationOf(optionOf(relation.options, 'deprecationReason'), relation.field.deprecated),
    doc: relation.field.doc,
    description: relation.field.description,
    span: relation.field.span,
  };
}

/**
 * The keys of `through` a many_to_many of `entity` to `target` follows: on each side, the join's
 * belongs_to named by `via` (`targetVia`) when written, else its only one to that side; a join of an
 * entity with itself takes for the target side the key the entity side did not (docs/behaviour.md §2.6).
 */
function joinKeys(
  belongsTo: ReadonlyMap<string, readonly BelongsToModel[]>,
  entity: string,
  target: string | undefined,
  through: string | undefined,
  via: { readonly value: string | undefined; readonly written: boolean },
  targetVia: { readonly value: string | undefined; readonly written: boolean },
): JoinKeys {
  const keys = through === undefined ? undefined : belongsTo.get(through);
  if (!keys || target === undefined) return { kind: 'unknown' };
  // A key whose target or column is itself unknown might be one meant: say nothing about it.
  if (keys.some((key) => !key.targetKnown || !key.keyColumnKnown)) return { kind: 'unknown' };
  const pick = (side: 'entity' | 'target', candidates: readonly BelongsToModel[], named: typeof via): JoinKeys | BelongsToModel => {
    if (named.written) {
      if (named.value === undefined) return { kind: 'unknown' };
      return candidates.find((key) => key.keyColumn === named.value) ?? { kind: 'viaUnknown', side, candidates };
    }
    const [only, ...others] = candidates;
    if (!only) return { kind: 'missing', side };
    return others.length === 0 ? only : { kind: 'ambiguous', side, candidates };
  };
  // A join of an entity with itself has two keys to it: `via` names this side's, the other is the target's.
  const from = pick(
    'entity',
    keys.filter((key) => key.target === entity),
    via,
  );
  if (from.kind !== 'belongsTo') return from;
  const to = pick(
    'target',
    keys.filter((key) => key.target === target && key !== from),
    targetVia,
  );
  if (to.kind !== 'belongsTo') return to;
  return { kind: 'resolved', from, to };
}

/** A many_to_many as written on `entity`, with the join's keys it follows decided. */
function resolveManyToMany(
  entity: WrittenEntity,
  relation: WrittenRelation,
  names: ReadonlySet<string>,
  belongsTo: ReadonlyMap<string, readonly BelongsToModel[]>,
): ManyToManyModel {
  const throughValue = optionOf(relation.options, 'through');
  const through = thunkTarget(throughValue);
  const via = optionOf(relation.options, 'via');
  const targetVia = optionOf(relation.options, 'targetVia');
  const join = joinKeys(
    belongsTo,
    entity.cls.name,
    relation.target?.name,
    through?.name,
    { value: stringOf(via), written: via !== undefined },
    { value: stringOf(targetVia), written: targetVia !== undefined },
  );
  return {
    kind: 'manyToMany',
    name: relation.field.name,
    entity: entity.cls.name,
    target: relation.target?.name,
    targetKnown: relation.target !== undefined && names.has(relation.target.name),
    targetSpan: relation.target?.span,
    through: through?.name,
    throughKnown: through !== undefined && names.has(through.name),
    throughSpan: through?.span ?? throughValue?.span,
    via: stringOf(via),
    viaSpan: via?.span,
    targetVia: stringOf(targetVia),
    targetViaSpan: targetVia?.span,
    join,
    keyColumn: join.kind === 'resolved' ? join.from.keyColumn : undefined,
    targetColumn: join.kind === 'resolved' ? join.to.keyColumn : undefined,
    exposed: booleanOf(optionOf(relation.options, 'exposed')) ?? false,
    complexity: expressionOf(optionOf(relation.options, 'complexity')),
    complexitySpan: optionOf(relation.options, 'complexity')?.span,
    deprecation: deprecationOf(optionOf(relation.options, 'deprecationReason'), relation.field.deprecated),
    doc: relation.field.doc,
    description: relation.field.description,
    span: relation.field.span,
  };
}

/** Whether a relation gets a field on the wire (`EntityModel.wireRelations`, docs/behaviour.md §2.1), its entity being exposed. */
const onWire = (relation: RelationModel): relation is WireRelationModel =>
  relation.exposed &&
  relation.targetKnown &&
  relation.target !== undefined &&
  relation.keyColumn !== undefined &&
  (relation.kind !== 'belongsTo' || relation.keyColumnKnown);

/**
 * Resolves every `@Entity()` class.
 *
 * Takes the declared classes; returns the entities sorted by name and a map by name. A relation
 * whose target is not an entity, or whose key column is not declared, is kept with `targetKnown`
 * / `keyColumnKnown` false and its has_many partners resolve to `{ kind: 'unknown' }`, so only
 * the rule about the misspelling reports (docs/behaviour.md §2.6; no cascades).
 */
export function resolveEntities(classes: readonly DeclaredClass[]): { entities: EntityModel[]; entityByName: Map<string, EntityModel> } {
  const written = classes
    .filter((cls): cls is NamedClass => cls.name !== undefined && cls.decorators.some((decorator) => decorator.name === 'Entity'))
    .map(readEntity)
    .sort((a, b) => a.cls.name.localeCompare(b.cls.name));
  const names = new Set(written.map((entity) => entity.cls.name));

  // belongs_to first: has_many keys are chosen among them. `inverse` is filled in once every
  // has_many is resolved, before anything reads the model.
  const belongsTo = resolveBelongsTo(written, names);
  const resolved = written.map((entity) => {
    const keys = belongsTo.get(entity.cls.name) ?? [];
    let next = 0;
    const relations = entity.relations.map((relation): RelationModel => {
      switch (relation.kind) {
        case 'belongsTo':
          return keys[next++] as BelongsToModel;
        case 'hasMany':
          return resolveHasMany(entity, relation, names, belongsTo);
        case 'manyToMany':
          return resolveManyToMany(entity, relation, names, belongsTo);
      }
    });
    return { entity, relations };
  });

  // The has_many following each belongs_to (the first, when several do).
  const inverseOf = new Map<BelongsToModel, HasManyModel>();
  for (const { relations } of resolved) {
    for (const relation of relations) {
      if (relation.kind !== 'hasMany' || relation.key.kind !== 'resolved' || inverseOf.has(relation.key.key)) continue;
      inverseOf.set(relation.key.key, relation);
      (relation.key.key as Mutable<BelongsToModel>).inverse = relation.name;
    }
  }

  const relationsTo = new Map(
    resolved.map(({ entity, relations }) => {
      const byTarget = new Map<string, RelationModel[]>();
      for (const relation of relations)
        if (relation.target !== undefined) byTarget.set(relation.target, [...(byTarget.get(relation.target) ?? []), relation]);
      return [entity.cls.name, byTarget] as const;
    }),
  );
  const entities = resolved.map(({ entity, relations }): EntityModel => {
    const inverses: InverseModel[] = [];
    for (const child of resolved) {
      for (const relation of relationsTo.get(child.entity.cls.name)?.get(entity.cls.name) ?? []) {
        if (relation.kind === 'belongsTo') inverses.push({ child: child.entity.cls.name, key: relation, hasMany: inverseOf.get(relation) });
      }
    }
    const source: SourceRef = { file: entity.cls.file, exportName: entity.cls.name };
    const primaryKeys = entity.columns.filter((column) => column.primaryKey);
    return {
      kind: 'entity',
      name: entity.cls.name,
      source,
      exposed: entity.exposed,
      columns: entity.columns,
      columnByName: new Map(entity.columns.map((column) => [column.name, column])),
      primaryKeys,
      keyed: primaryKeys.length === 1 && primaryKeys[0]?.name === 'id',
      compositeKey: primaryKeys.length > 1 && !entity.exposed,
      relations,
      wireRelations: entity.exposed ? relations.filter(onWire) : [],
      relationsTo: relationsTo.get(entity.cls.name) ?? new Map(),
      inverses,
      uniques: entity.uniques,
      doc: entity.cls.doc,
      description: entity.cls.description,
      span: entity.cls.span,
    };
  });
  return { entities, entityByName: new Map(entities.map((entity) => [entity.name, entity])) };
}
