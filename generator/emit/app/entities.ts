/**
 * Emits `entities.ts`: the runtime's view of each exposed entity (wire fields for masking and
 * selection checks, relations for loaders) and the structure of every input type (REST bodies
 * are checked with the same rules GraphQL applies to its input objects).
 */
import type { EntityModel, ResolvedApp } from '../../model/model.js';
import {
  columnKindsConstant,
  columnsConstant,
  constantCase,
  fieldsConstant,
  insertShapeConstant,
  keyConstant,
  referencesConstant,
} from '../../model/naming.js';
import type { TypeShape } from '../../model/types.js';
import { type EmitContext, exposedEntities, wireFields } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** How a raw value of a column of `type` is read back, or undefined for text (strings, ids, enums). */
function columnKind(type: TypeShape): 'int' | 'float' | 'boolean' | 'datetime' | undefined {
  if (type.named.kind !== 'scalar') return undefined;
  switch (type.named.name) {
    case 'Int':
      return 'int';
    case 'Float':
      return 'float';
    case 'Boolean':
      return 'boolean';
    case 'DateTime':
      return 'datetime';
    default:
      return undefined;
  }
}

/**
 * Whether the runtime writes `entity`'s creates itself (runtime/data/sql-insert.ts): every column is a
 * single scalar or enum value. Otherwise (a list column) creates go through Prisma, and the entity
 * has no insert shape.
 */
export function insertsItself(entity: EntityModel): boolean {
  return entity.columns.every((column) => !column.type.list && (column.type.named.kind === 'scalar' || column.type.named.kind === 'enum'));
}

/** How a create writes `entity`'s row itself (runtime/data/sql-insert.ts `InsertShape`), as TypeScript source; for an entity that {@link insertsItself}. */
function insertShapeLiteral(app: ResolvedApp, entity: EntityModel): string {
  const columns: string[] = [];
  for (const column of entity.columns) {
    const { named, nullable } = column.type;
    const type = named.kind === 'enum' ? 'enum' : column.key ? 'id' : (columnKind(column.type) ?? 'text');
    const parts = [`type: ${quote(type)}`];
    if (nullable) parts.push('nullable: true');
    // A composite key's columns are the writer's to give (docs/behaviour.md §2.6); a single key is a new UUID v7.
    if (column.primaryKey && !entity.compositeKey) parts.push(`fill: 'uuid7'`);
    else if (column.default === 'now' && type === 'datetime') parts.push(`fill: 'now'`);
    else if (column.default !== undefined) parts.push(`fill: 'database'`);
    if (named.kind === 'enum') parts.push(`values: [${(app.enumByName.get(named.name)?.values ?? []).map(quote).join(', ')}]`);
    columns.push(`${column.name}: { ${parts.join(', ')} }`);
  }
  return `{ ${columns.join(', ')} }`;
}

/** The constant holding an input type's structure: `CreateUser` → `CREATE_USER_INPUT`. */
export function inputConstant(name: string): string {
  return `${constantCase(name)}_INPUT`;
}

/** TypeScript source of an {@link InputFieldType} literal for `shape`. */
export function inputFieldLiteral(app: ResolvedApp, shape: TypeShape): string {
  const named = shape.named;
  let type: string;
  if (named.kind === 'scalar') type = `{ kind: 'scalar', name: '${named.name}' }`;
  else if (named.kind === 'enum')
    type = `{ kind: 'enum', values: [${(app.enumByName.get(named.name)?.values ?? []).map(quote).join(', ')}] }`;
  else if (named.kind === 'input') type = `${inputConstant(named.name)}.type`;
  else type = `{ kind: 'scalar', name: 'String' }`;
  return `{ type: ${type}, list: ${shape.list}, nullable: ${shape.nullable} }`;
}

/** The belongs_to relations of `entity` whose key and target are known: the foreign keys its writes set (docs/hostile-input.md §11). */
export function writtenReferences(entity: EntityModel): { readonly keyColumn: string; readonly target: string }[] {
  return entity.relations.flatMap((relation) =>
    relation.kind === 'belongsTo' &&
    relation.targetKnown &&
    relation.keyColumnKnown &&
    relation.keyColumn !== undefined &&
    relation.target !== undefined
      ? [{ keyColumn: relation.keyColumn, target: relation.target }]
      : [],
  );
}

/**
 * The relations a grant's condition on `entity` may follow (runtime/data/sql-scope.ts `ScopeRelation`):
 * each belongs_to and has_many whose target and key column are known, exposed or not.
 */
function scopeRelations(entity: EntityModel): { name: string; kind: 'belongsTo' | 'hasMany'; target: string; column: string }[] {
  return entity.relations.flatMap((relation) => {
    // A many_to_many is no relation of the database's: its join entity's belongs_to are.
    if (relation.kind === 'manyToMany') return [];
    if (!relation.targetKnown || relation.target === undefined || relation.keyColumn === undefined) return [];
    if (relation.kind === 'belongsTo' && !relation.keyColumnKnown) return [];
    return [{ name: relation.name, kind: relation.kind, target: relation.target, column: relation.keyColumn }];
  });
}

/** The `entities.ts` file. */
export function emitEntities(context: EmitContext): GeneratedFile {
  const { app } = context;
  const file = new TypeScriptFile(
    'entities.ts',
    context,
    'What the runtime knows about each exposed entity (wire fields, relations) and the structure of\nevery input type, for masking, selection checks, loaders and REST body checks.',
  );
  const { body: w, imports } = file;
  const entities = exposedEntities(app);
  for (const entity of app.entities) {
    writeDoc(w, [`Stored columns of ${entity.name} (${entity.source.file}).`]);
    w.writeLine(
      `export const ${columnsConstant(entity.name)} = [${entity.columns.map((column) => quote(column.name)).join(', ')}] as const;`,
    );
    w.blankLine();
    const kinds = entity.columns.flatMap((column) => {
      const kind = columnKind(column.type);
      return kind ? [`${column.name}: ${quote(kind)}`] : [];
    });
    writeDoc(w, [`How raw rows of ${entity.name} are read: the kind of each column that is not text.`]);
    w.writeLine(
      `export const ${columnKindsConstant(entity.name)}: Readonly<Record<string, ${imports.type('runtime/data/sql-runner.ts', 'ColumnKind')}>> = ${kinds.length === 0 ? '{}' : `{ ${kinds.join(', ')} }`};`,
    );
    w.blankLine();
    if (insertsItself(entity)) {
      writeDoc(w, [
        `How a create writes a row of ${entity.name}: each column's type and who fills it when left out (runtime/data/sql-insert.ts).`,
      ]);
      w.writeLine(
        `export const ${insertShapeConstant(entity.name)}: ${imports.type('runtime/data/sql-insert.ts', 'InsertShape')} = ${insertShapeLiteral(app, entity)};`,
      );
      w.blankLine();
    }
    if (entity.compositeKey) {
      writeDoc(w, [`The composite key of ${entity.name}, in key order; a UUID column holds a row's id (docs/behaviour.md §2.6).`]);
      const keyColumns = entity.primaryKeys.map((column) => `{ name: ${quote(column.name)}, uuid: ${String(column.key)} }`);
      w.writeLine(
        `export const ${keyConstant(entity.name)}: readonly ${imports.type('runtime/data/composite-key-repository.ts', 'KeyColumn')}[] = [${keyColumns.join(', ')}];`,
      );
      w.blankLine();
    }
    if (!entity.exposed) continue;
    writeDoc(w, [`Wire fields of ${entity.name}: what masking and selection checks consider.`]);
    w.writeLine(`export const ${fieldsConstant(entity.name)} = [${wireFields(entity).map(quote).join(', ')}] as const;`);
    w.blankLine();
  }
  for (const entity of app.entities) {
    const references = writtenReferences(entity);
    if (references.length === 0) continue;
    writeDoc(w, [
      `The foreign keys of ${entity.name}: a write setting one must name a row the caller may read (docs/hostile-input.md §11).`,
    ]);
    const reference = imports.type('runtime/data/repository.ts', 'EntityReference');
    w.writeLine(
      `export const ${referencesConstant(entity.name)}: readonly ${reference}[] = [${references.map((relation) => `{ column: ${quote(relation.keyColumn)}, entity: ${quote(relation.target)} }`).join(', ')}];`,
    );
    w.blankLine();
  }
  // After every entity's columns: a table names them.
  writeDoc(w, [
    "What a grant's conditions may name of each entity — its columns and the relations they may follow, each",
    'relation condition an `EXISTS` over the related table (runtime/data/sql-scope.ts, docs/behaviour.md §5.5).',
  ]);
  w.write(`export const SCOPE_SCHEMA: ${imports.type('runtime/data/sql-scope.ts', 'ScopeSchema')} = `).inlineBlock(() => {
    for (const entity of app.entities) {
      const relations = scopeRelations(entity).map(
        (relation) =>
          `${relation.name}: { kind: '${relation.kind}', target: ${quote(relation.target)}, column: ${quote(relation.column)} }`,
      );
      w.writeLine(`${entity.name}: { columns: ${columnsConstant(entity.name)}, relations: { ${relations.join(', ')} } },`);
    }
  });
  w.write(';').newLine();
  w.blankLine();
  const descriptor = imports.type('runtime/data/entity-metadata.ts', 'EntityDescriptor');
  writeDoc(w, ['Every exposed entity (docs/behaviour.md §2).']);
  w.write(`export const ENTITIES: readonly ${descriptor}[] = [`).indent(() => {
    for (const entity of entities) {
      const relations = entity.wireRelations.map(
        (relation) =>
          `{ kind: '${relation.kind}', field: ${quote(relation.name)}, target: ${quote(relation.target)}, column: ${quote(relation.keyColumn)} }`,
      );
      w.writeLine(`{ name: ${quote(entity.name)}, fields: ${fieldsConstant(entity.name)}, relations: [${relations.join(', ')}] },`);
    }
  });
  w.writeLine('];');
  w.blankLine();
  writeDoc(w, ['{@link ENTITIES} by name.']);
  w.writeLine(
    `export const ENTITY_BY_NAME: ReadonlyMap<string, ${descriptor}> = new Map(ENTITIES.map((entity) => [entity.name, entity]));`,
  );

  // The structures REST bodies and MCP arguments are coerced with (`coerceInput`): inputs a route's body or a tool names, and
  // the inputs those name, in dependency order (an input used by another is declared first). An
  // interface only returned needs none.
  const ordered: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const field of app.inputByName.get(name)?.fields ?? []) if (field.type.named.kind === 'input') visit(field.type.named.name);
    ordered.push(name);
  };
  const bodies = new Set([
    ...app.mounted.controllers.flatMap((controller) =>
      controller.routes.flatMap((route) =>
        route.params.flatMap((param) => (param.binding === 'body' && param.type.named.kind === 'input' ? [param.type.named.name] : [])),
      ),
    ),
    // MCP tool arguments are checked with the same structures (docs/behaviour.md §4.6).
    ...(app.mounted.mcp?.tools ?? []).flatMap((tool) =>
      tool.params.flatMap((param) => (param.type.named.kind === 'input' ? [param.type.named.name] : [])),
    ),
  ]);
  for (const input of app.inputs) if (bodies.has(input.name)) visit(input.name);
  for (const name of ordered) {
    const input = app.inputByName.get(name);
    if (!input) continue;
    w.blankLine();
    writeDoc(w, [`Structure of input ${input.name} (${input.span.file}).`]);
    w.write(
      `export const ${inputConstant(input.name)}: ${imports.type('runtime/http/inputs.ts', 'InputFieldType')} & { readonly type: { readonly kind: 'input' } } = {`,
    ).indent(() => {
      w.write('type: {').indent(() => {
        w.writeLine("kind: 'input',");
        w.write('fields: {').indent(() => {
          for (const field of input.fields) w.writeLine(`${field.name}: ${inputFieldLiteral(app, field.type)},`);
        });
        w.writeLine('},');
      });
      w.writeLine('},');
      w.writeLine('list: false,');
      w.writeLine('nullable: false,');
    });
    w.writeLine('};');
  }
  return file.render();
}
