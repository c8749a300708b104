/**
 * Emits the Prisma schema of the application (docs/decisions.md §2): one model per entity, enums,
 * named relations for every belongs_to with the parent's back-relation (named after the has_many
 * that follows the key, as resolved), unique constraints, and a composite `(fk, id)` index on
 * every foreign key so has_many pages rank per parent by an index range scan (docs/behaviour.md §8,
 * docs/decisions.md §6). A join table's composite key is its `@@id`, and each of its other key
 * columns gets an index leading with it, so its rows are found from either side by an index range
 * (docs/behaviour.md §2.6).
 */
import type { Dialect } from '../../../runtime/dialects/index.js';
import type { ColumnModel, EntityModel, ResolvedApp } from '../../model/model.js';
import { prismaBackRelationField, prismaRelationName } from '../../model/naming.js';
import type { EnumModel } from '../../model/types.js';
import { GENERATED_HEADER } from '../writer.js';

const SCALAR_TYPES = { ID: 'String', String: 'String', Int: 'Int', Float: 'Float', Boolean: 'Boolean', DateTime: 'DateTime' } as const;

function columnType(column: ColumnModel): string {
  const named = column.type.named;
  const base = named.kind === 'scalar' ? SCALAR_TYPES[named.name] : named.kind === 'enum' ? named.name : 'String';
  return `${base}${column.type.list ? '[]' : ''}${column.type.nullable && !column.type.list ? '?' : ''}`;
}

/** The attributes of `column` of `entity`: a single primary key is `@id` filled with a UUID v7; a composite key's columns are the block's `@@id`, given by the writer. */
function columnAttributes(entity: EntityModel, column: ColumnModel, dialect: Dialect): string[] {
  const attributes: string[] = [];
  const generatedKey = column.primaryKey && !entity.compositeKey;
  if (generatedKey) attributes.push('@id', '@default(uuid(7))');
  // The dialect's native key type, if it has one (PostgreSQL: uuid, ordered byte-wise like the UUID v7 text).
  if (column.key) attributes.push(...dialect.prisma.idColumnAttributes);
  if (column.unique) attributes.push('@unique');
  const value = column.default;
  if (value !== undefined && !generatedKey) {
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

function emitModel(entity: EntityModel, dialect: Dialect): string {
  const lines: string[] = [...documentation(entity.doc, ''), `model ${entity.name} {`];
  const rows: { doc: string[]; row: string[] }[] = [];
  for (const column of entity.columns) {
    rows.push({
      doc: documentation(column.doc, '  '),
      row: [column.name, columnType(column), columnAttributes(entity, column, dialect).join(' ')],
    });
  }
  for (const relation of entity.relations) {
    if (relation.kind !== 'belongsTo' || relation.target === undefined || relation.keyColumn === undefined) continue;
    rows.push({
      doc: documentation(relation.doc, '  '),
      row: [
        relation.name,
        `${relation.target}${relation.optional ? '?' : ''}`,
        `@relation("${prismaRelationName(entity.name, relation.name)}", fields: [${relation.keyColumn}], references: [id])`,
      ],
    });
  }
  // Back-relations: a list field on this entity for every belongs_to pointing at it, named after the has_many following it.
  for (const inverse of entity.inverses) {
    rows.push({
      doc: inverse.hasMany ? documentation(inverse.hasMany.doc, '  ') : [],
      row: [
        inverse.hasMany?.name ?? prismaBackRelationField(inverse.child, inverse.key.name),
        `${inverse.child}[]`,
        `@relation("${prismaRelationName(inverse.child, inverse.key.name)}")`,
      ],
    });
  }
  const aligned = alignRows(rows.map((entry) => entry.row));
  rows.forEach((entry, index) => lines.push(...entry.doc, aligned[index] ?? ''));
  const blockAttributes: string[] = [];
  const key = entity.primaryKeys.length > 0 ? entity.primaryKeys.map((column) => column.name) : ['id'];
  if (entity.compositeKey) blockAttributes.push(`@@id([${key.join(', ')}])`);
  for (const unique of entity.uniques) blockAttributes.push(`@@unique([${unique.columns.join(', ')}])`);
  // Each index leads with its column and goes on in key order (the order rows are listed in), each
  // column once; the key's own index already leads with its first column, so that one needs none.
  const indexed = new Set<string>([key[0] ?? 'id']);
  const indexOn = (column: string): void => {
    if (indexed.has(column)) return;
    indexed.add(column);
    blockAttributes.push(`@@index([${[column, ...key.filter((name) => name !== column)].join(', ')}])`);
  };
  for (const relation of entity.relations)
    if (relation.kind === 'belongsTo' && relation.keyColumn !== undefined) indexOn(relation.keyColumn);
  // A filterable column's equality filter walks its keyset as an index range too (docs/behaviour.md §4.7).
  for (const column of entity.columns) if (column.filterable && !column.primaryKey) indexOn(column.name);
  if (blockAttributes.length > 0) lines.push('', ...blockAttributes.map((attribute) => `  ${attribute}`));
  lines.push('}');
  return lines.join('\n');
}

function emitEnum(model: EnumModel): string {
  return [...documentation(model.doc, ''), `enum ${model.name} {`, ...model.values.map((value) => `  ${value}`), '}'].join('\n');
}

/**
 * The complete `schema.prisma` text for one database: takes the resolved model and the database's
 * dialect (its datasource settings and column attributes); returns the schema text.
 */
export function emitPrismaSchema(app: ResolvedApp, dialect: Dialect): string {
  const header = [
    GENERATED_HEADER,
    '',
    'generator client {',
    '  provider     = "prisma-client"',
    '  output       = "./client"',
    '  moduleFormat = "esm"',
    // Its files import each other as `.js`, as every generated file does: tsx maps them to the `.ts`
    // sources in development, and `build` compiles each file on its own, keeping specifiers.
    '  importFileExtension = "js"',
    '  compilerBuild = "small"',
    '}',
    '',
    'datasource db {',
    ...Object.entries(dialect.prisma.datasource).map(([key, value]) => `  ${key} = ${JSON.stringify(value)}`),
    '}',
  ].join('\n');
  const blocks = [...app.enums.map(emitEnum), ...app.entities.map((entity) => emitModel(entity, dialect))];
  return `${[header, ...blocks].join('\n\n')}\n`;
}
