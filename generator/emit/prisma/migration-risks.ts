/**
 * The steps of a new migration that can lose data or fail to run (docs/decisions.md §11), found by
 * comparing the committed Prisma schema with the next one, and measured against the development
 * database with one counting query each.
 *
 * The schema engine's own data-loss evaluation (`evaluateDataLoss`) cannot run in its WebAssembly
 * build: it needs a shadow database the build does not take from a driver adapter ("shadow DB must
 * be provided through an external factory", Prisma 7.10, both databases). So the steps come from
 * the two datamodels — both written by this generator, in one layout — and the counts from the
 * database, worded as Prisma's `migrate dev` words them.
 */

/** One field of a model, as the emitted schema declares it. */
interface DatamodelField {
  readonly type: string;
  readonly optional: boolean;
  readonly list: boolean;
  readonly hasDefault: boolean;
  readonly unique: boolean;
}

/** One model: its scalar fields (relation fields left out) and unique column sets. */
interface DatamodelModel {
  readonly fields: ReadonlyMap<string, DatamodelField>;
  readonly uniques: readonly (readonly string[])[];
}

/** The models and enums of a datamodel. */
interface Datamodel {
  readonly models: ReadonlyMap<string, DatamodelModel>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

/** Reads the models and enums of a schema this generator emitted (one field per line, attributes after the type). */
function parseDatamodel(text: string): Datamodel {
  const blocks = [...text.matchAll(/^(model|enum)\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const enums = new Map<string, string[]>();
  for (const [, kind, name, body] of blocks) {
    if (kind === 'enum' && name)
      enums.set(
        name,
        lines(body ?? '')
          .map((line) => line.split(/\s+/)[0] ?? '')
          .filter((value) => value !== ''),
      );
  }
  const modelNames = new Set(blocks.filter(([, kind]) => kind === 'model').map(([, , name]) => name));
  const models = new Map<string, DatamodelModel>();
  for (const [, kind, name, body] of blocks) {
    if (kind !== 'model' || !name) continue;
    const fields = new Map<string, DatamodelField>();
    const uniques: string[][] = [];
    for (const line of lines(body ?? '')) {
      const unique = /^@@unique\(\s*\[([^\]]*)\]/.exec(line);
      if (unique) uniques.push((unique[1] ?? '').split(',').map((column) => column.trim()));
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!field || line.startsWith('@@')) continue;
      const [, fieldName = '', type = '', list, optional, attributes = ''] = field;
      if (modelNames.has(type)) continue;
      fields.set(fieldName, {
        type,
        optional: optional === '?',
        list: list === '[]',
        hasDefault: /@default\(|@updatedAt/.test(attributes),
        unique: /@unique\b/.test(attributes) || /@id\b/.test(attributes),
      });
      if (/@unique\b/.test(attributes)) uniques.push([fieldName]);
    }
    models.set(name, { fields, uniques });
  }
  return { models, enums };
}

/** The declaration lines of a block: comments and blank lines dropped. */
function lines(body: string): string[] {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'));
}

/**
 * A step that loses data (`drop-table`, `drop-column`, `type-change`) or cannot run on a table with
 * rows that break it (`required-without-default`, `made-required`, `unique-added`,
 * `enum-value-removed`).
 */
export interface RiskyStep {
  readonly kind:
    'drop-table' | 'drop-column' | 'type-change' | 'required-without-default' | 'made-required' | 'unique-added' | 'enum-value-removed';
  /** The model (entity) and table name. */
  readonly table: string;
  /** The column(s) it concerns; empty for a dropped table. */
  readonly columns: readonly string[];
  /** The type before and after (`type-change`), or the removed value (`enum-value-removed`). */
  readonly detail?: string;
  /** SQL counting what is at stake (identifiers quoted; the same text on SQLite and PostgreSQL). */
  readonly countQuery: string;
}

/** Whether the step only fails where rows break it (rather than losing data wherever there is some). */
export function isUnexecutable(step: RiskyStep): boolean {
  return step.kind !== 'drop-table' && step.kind !== 'drop-column' && step.kind !== 'type-change';
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The risky steps from the committed datamodel `previous` to `next`, in model and column order. */
export function riskySteps(previous: string, next: string): RiskyStep[] {
  const before = parseDatamodel(previous);
  const after = parseDatamodel(next);
  const steps: RiskyStep[] = [];
  for (const [table, model] of [...before.models].sort(([a], [b]) => a.localeCompare(b))) {
    const t = quote(table);
    const successor = after.models.get(table);
    if (!successor) {
      steps.push({ kind: 'drop-table', table, columns: [], countQuery: `SELECT COUNT(*) FROM ${t}` });
      continue;
    }
    for (const [column, field] of model.fields) {
      const c = quote(column);
      const now = successor.fields.get(column);
      if (!now) steps.push({ kind: 'drop-column', table, columns: [column], countQuery: `SELECT COUNT(${c}) FROM ${t}` });
      else if (now.type !== field.type || now.list !== field.list) {
        steps.push({
          kind: 'type-change',
          table,
          columns: [column],
          detail: `${field.type}${field.list ? '[]' : ''} to ${now.type}${now.list ? '[]' : ''}`,
          countQuery: `SELECT COUNT(${c}) FROM ${t}`,
        });
      } else if (field.optional && !now.optional)
        steps.push({ kind: 'made-required', table, columns: [column], countQuery: `SELECT COUNT(*) FROM ${t} WHERE ${c} IS NULL` });
      else if (before.enums.has(field.type)) {
        const remaining = new Set(after.enums.get(field.type) ?? []);
        for (const value of before.enums.get(field.type) ?? []) {
          if (!remaining.has(value))
            steps.push({
              kind: 'enum-value-removed',
              table,
              columns: [column],
              detail: value,
              countQuery: `SELECT COUNT(*) FROM ${t} WHERE ${c} = '${value.replace(/'/g, "''")}'`,
            });
        }
      }
    }
    for (const [column, field] of successor.fields) {
      if (!model.fields.has(column) && !field.optional && !field.hasDefault && !field.list) {
        steps.push({ kind: 'required-without-default', table, columns: [column], countQuery: `SELECT COUNT(*) FROM ${t}` });
      }
    }
    const existing = new Set(model.uniques.map((columns) => columns.join(',')));
    for (const columns of successor.uniques) {
      // A unique set over columns that all existed: rows may already repeat it.
      if (existing.has(columns.join(',')) || !columns.every((column) => model.fields.has(column))) continue;
      const list = columns.map(quote).join(', ');
      steps.push({
        kind: 'unique-added',
        table,
        columns,
        countQuery: `SELECT COUNT(*) FROM (SELECT 1 FROM ${t} GROUP BY ${list} HAVING COUNT(*) > 1) AS repeated`,
      });
    }
  }
  return steps;
}

/**
 * What the step does, worded as Prisma's `migrate dev` words it, with what the development database
 * holds: `count` is the result of its count query there, or undefined when it was not counted.
 */
export function describeStep(step: RiskyStep, count: number | undefined): string {
  const table = `\`${step.table}\``;
  const column = `\`${step.columns.join('`, `')}\``;
  const held = (what: string): string =>
    count === undefined
      ? ''
      : count === 0
        ? `, which holds no ${what} in the development database`
        : `, which still contains ${count} ${what}`;
  switch (step.kind) {
    case 'drop-table':
      return `You are about to drop the ${table} table${count === undefined ? '' : count === 0 ? ', which is empty in the development database' : `, which is not empty (${count} rows)`}. All the data it contains will be lost.`;
    case 'drop-column':
      return `You are about to drop the column ${column} on the ${table} table${held('non-null values')}. All the data in the column will be lost.`;
    case 'type-change':
      return `You are about to change the type of the column ${column} on the ${table} table from ${step.detail ?? ''}${held('non-null values')}. The data in that column will be cast or lost.`;
    case 'required-without-default':
      return `Added the required column ${column} to the ${table} table without a default value. ${count === undefined ? 'This is not possible if the table is not empty.' : count === 0 ? 'The table is empty in the development database; this is not possible on a database where it is not.' : `There are ${count} rows in this table, it is not possible to execute this step.`}`;
    case 'made-required':
      return `Made the column ${column} on the ${table} table required${count === undefined ? '; this fails where it holds NULL values.' : count === 0 ? '; it holds no NULL values in the development database, but this fails where it does.' : `, but there are ${count} existing NULL values.`}`;
    case 'unique-added':
      return `A unique constraint covering the columns ${column} on the ${table} table will be added${count === undefined ? '; this fails where rows repeat them.' : count === 0 ? '; no rows repeat them in the development database, but this fails where rows do.' : `, and ${count} sets of values are already repeated; it is not possible to execute this step.`}`;
    case 'enum-value-removed':
      return `The value \`${step.detail ?? ''}\` is removed from the type of the column ${column} on the ${table} table${count === undefined ? '; this fails where rows hold it.' : count === 0 ? '; no row holds it in the development database, but this fails where rows do.' : `, and ${count} rows hold it; it is not possible to execute this step.`}`;
  }
}

/** The fix a step's diagnostic names. */
export function stepFix(step: RiskyStep): string {
  const column = step.columns.join(', ');
  switch (step.kind) {
    case 'drop-table':
      return `if the entity ${step.table} vanished by mistake (a file moved out of entities/, a misspelt @Entity), restore it; to drop the table on purpose, pass --accept-data-loss`;
    case 'drop-column':
      return `if ${step.table}.${column} vanished by mistake (a misspelt decorator such as @Colum(), a deleted line), restore it; to rename it, add the new column, copy the data, then drop the old one in a later change; to drop it on purpose, pass --accept-data-loss`;
    case 'type-change':
      return `add a column of the new type beside ${step.table}.${column} and copy the values over, then drop the old one in a later change; or pass --accept-data-loss`;
    case 'required-without-default':
      return `give ${step.table}.${column} a default (@Column({ default: … })), or add it optional first (\`${column}?: … | null\`), fill it, and make it required in a later change`;
    case 'made-required':
      return `fill the NULL values of ${step.table}.${column} first (a migration that updates them), or give it a default`;
    case 'unique-added':
      return `remove the repeated values of ${step.table} (${column}) first, or leave the constraint out`;
    case 'enum-value-removed':
      return `move the rows of ${step.table}.${column} holding \`${step.detail ?? ''}\` to another value first, or keep the value`;
  }
}
