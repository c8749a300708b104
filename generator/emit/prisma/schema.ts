/**
 * Emits the Prisma schema of the application (PRODUCT.md §2): one model per entity, enums,
 * named relations for every belongs_to with the parent's back-relation, unique constraints,
 * and a composite `(fk, id)` index on every foreign key so has_many pages rank per parent by an
 * index range scan (spec §8, PRODUCT.md §6).
 */
import type { BelongsToModel, ColumnModel, EntityModel, EnumModel, HasManyModel } from '../../model/model.js';
import { prismaBackRelationField, prismaRelationName } from '../../model/naming.js';

/** Database providers the schema can be emitted for. */
export type DatabaseProvider = 'sqlite' | 'postgresql';

/** The belongs_to a has_many follows, or undefined when none or several match (rules report it). */
export function matchHasMany(relation: HasManyModel, parent: EntityModel, entities: readonly EntityModel[]): BelongsToModel | undefined {
  const child = entities.find((entity) => entity.name === relation.target);
  if (!child) return undefined;
  const keys = child.relations.filter((candidate): candidate is BelongsToModel => candidate.kind === 'belongsTo' && candidate.target === parent.name);
  if (relation.via !== undefined) return keys.find((key) => key.column === relation.via);
  return keys.length === 1 ? keys[0] : undefined;
}

const SCALAR_TYPES = { ID: 'String', String: 'String', Int: 'Int', Float: 'Float', Boolean: 'Boolean', DateTime: 'DateTime' } as const;

function columnType(column: ColumnModel): string {
  const named = column.type.named;
  const base = named.kind === 'scalar' ? SCALAR_TYPES[named.name] : named.kind === 'enum' ? named.name : 'String';
  return `${base}${column.type.list ? '[]' : ''}${column.type.nullable && !column.type.list ? '?' : ''}`;
}

function columnAttributes(column: ColumnModel, provider: DatabaseProvider): string[] {
  const attributes: string[] = [];
  if (column.primaryKey) attributes.push('@id', '@default(uuid(7))');
  // PostgreSQL stores keys as native uuid: 16 bytes, ordered byte-wise like the UUID v7 text.
  if (provider === 'postgresql' && column.type.named.kind === 'scalar' && column.type.named.name === 'ID') attributes.push('@db.Uuid');
  if (column.unique) attributes.push('@unique');
  const value = column.default;
  if (value !== undefined && !column.primaryKey) {
    if (value === 'now' && column.type.named.kind === 'scalar' && column.type.named.name === 'DateTime') attributes.push('@default(now())');
    else if (typeof value === 'string' && column.type.named.kind === 'enum') attributes.push(`@default(${value})`);
    else if (typeof value === 'string') attributes.push(`@default(${JSON.stringify(value)})`);
    else attributes.push(`@default(${String(value)})`);
  }
  return attributes;
}

function documentation(doc: string | undefined, indent: string): string[] {
  return doc ? doc.split('\n').map((line) => `${indent}///${line ? ` ${line}` : ''}`) : [];
}

/** Aligns `name type attributes` columns inside a model block, like `prisma format`. */
function alignRows(rows: readonly (readonly string[])[]): string[] {
  const widths = [0, 0];
  for (const row of rows) {
    widths[0] = Math.max(widths[0] ?? 0, row[0]?.length ?? 0);
    widths[1] = Math.max(widths[1] ?? 0, row[1]?.length ?? 0);
  }
  return rows.map((row) => {
    const [name = '', type = '', attributes = ''] = row;
    return `  ${name.padEnd(widths[0] ?? 0)} ${attributes ? `${type.padEnd(widths[1] ?? 0)} ${attributes}` : type}`.trimEnd();
  });
}

function emitModel(entity: EntityModel, entities: readonly EntityModel[], provider: DatabaseProvider): string {
  const lines: string[] = [...documentation(entity.doc, ''), `model ${entity.name} {`];
  const rows: { doc: string[]; row: string[] }[] = [];
  for (const column of entity.columns) {
    rows.push({ doc: documentation(column.doc, '  '), row: [column.name, columnType(column), columnAttributes(column, provider).join(' ')] });
  }
  for (const relation of entity.relations) {
    if (relation.kind !== 'belongsTo') continue;
    const column = entity.columns.find((candidate) => candidate.name === relation.column);
    const optional = column?.type.nullable ?? false;
    rows.push({
      doc: documentation(relation.doc, '  '),
      row: [relation.name, `${relation.target}${optional ? '?' : ''}`, `@relation("${prismaRelationName(entity.name, relation.name)}", fields: [${relation.column}], references: [id])`],
    });
  }
  // Back-relations: a list field on this entity for every belongs_to pointing at it.
  for (const child of entities) {
    for (const relation of child.relations) {
      if (relation.kind !== 'belongsTo' || relation.target !== entity.name) continue;
      const declared = entity.relations.find(
        (candidate): candidate is HasManyModel => candidate.kind === 'hasMany' && candidate.target === child.name && matchHasMany(candidate, entity, entities) === relation,
      );
      rows.push({
        doc: declared ? documentation(declared.doc, '  ') : [],
        row: [declared?.name ?? prismaBackRelationField(child.name, relation.name), `${child.name}[]`, `@relation("${prismaRelationName(child.name, relation.name)}")`],
      });
    }
  }
  const aligned = alignRows(rows.map((entry) => entry.row));
  rows.forEach((entry, index) => lines.push(...entry.doc, aligned[index] ?? ''));
  const blockAttributes: string[] = [];
  for (const unique of entity.uniques) blockAttributes.push(`@@unique([${unique.join(', ')}])`);
  const primaryKey = entity.columns.find((column) => column.primaryKey)?.name ?? 'id';
  const indexed = new Set<string>();
  for (const relation of entity.relations) {
    if (relation.kind !== 'belongsTo' || indexed.has(relation.column)) continue;
    indexed.add(relation.column);
    blockAttributes.push(`@@index([${relation.column}, ${primaryKey}])`);
  }
  if (blockAttributes.length > 0) lines.push('', ...blockAttributes.map((attribute) => `  ${attribute}`));
  lines.push('}');
  return lines.join('\n');
}

function emitEnum(model: EnumModel): string {
  return [...documentation(model.doc, ''), `enum ${model.name} {`, ...model.values.map((value) => `  ${value}`), '}'].join('\n');
}

/** The complete `schema.prisma` text for `provider`. */
export function emitPrismaSchema(entities: readonly EntityModel[], enums: readonly EnumModel[], provider: DatabaseProvider): string {
  const header = [
    '// Generated by resource-service from entities/ — do not edit; run `npm run generate`.',
    '',
    'generator client {',
    '  provider     = "prisma-client"',
    '  output       = "./client"',
    '  moduleFormat = "esm"',
    '  compilerBuild = "small"',
    '}',
    '',
    'datasource db {',
    `  provider = "${provider}"`,
    '}',
  ].join('\n');
  const blocks = [...enums.map(emitEnum), ...entities.map((entity) => emitModel(entity, entities, provider))];
  return `${[header, ...blocks].join('\n\n')}\n`;
}
