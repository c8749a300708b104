/**
 * A migration's name from the SQL it runs (docs/decisions.md §9): `create_comment`,
 * `add_post_summary`, `drop_post_published_at`, `alter_post_title`, `drop_digest`,
 * `index_post_status_id` — the tables and columns the statements create, alter and drop, not the
 * Prisma models whose text changed (a new `Comment` adds back-relation fields to `Post` and `User`
 * in the schema, yet changes neither table).
 *
 * The scripts read here are Prisma's schema engine's own rendering (one statement per `;`,
 * `"quoted"` identifiers, `-- Kind` headers), for SQLite and PostgreSQL. A general SQL parser was
 * tried and refused them (node-sql-parser 5.4 stops at SQLite's `PRAGMA foreign_keys=OFF` and
 * PostgreSQL's `ALTER TYPE … ADD VALUE`), so statements are split by a small lexer that respects
 * quotes and comments, and each is recognised by its leading keywords. A statement not recognised
 * names nothing; a script of only those is named `update`. Nothing here throws.
 *
 * SQLite cannot alter most columns in place: the engine "redefines" the table (`CREATE TABLE
 * "new_Post" …`, copy, `DROP TABLE "Post"`, rename). What changed is then found by comparing the new
 * definition's columns with the previous one's, taken from the previous schema's full script
 * (`previousScript`: the SQL creating the previous schema from nothing).
 */
import { snakeCase } from '../../model/naming.js';

/** One change a migration makes, as its statements say (docs/decisions.md §9). */
export type MigrationChange =
  | { readonly kind: 'create_table' | 'drop_table' | 'alter_table'; readonly table: string }
  | { readonly kind: 'add_column' | 'drop_column' | 'alter_column'; readonly table: string; readonly column: string }
  | { readonly kind: 'create_index'; readonly table: string; readonly columns: readonly string[]; readonly unique: boolean }
  | { readonly kind: 'drop_index' | 'alter_index'; readonly name: string }
  | { readonly kind: 'create_enum' | 'alter_enum' | 'drop_enum'; readonly name: string };

/** The longest a name's description gets (its `NNNN_` prefix aside). */
const MAX_DESCRIPTION = 60;

/** `script` cut into statements, comments removed, whitespace kept; `;` inside quotes does not cut (docs/decisions.md §9 "Reading the SQL"). */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let current = '';
  let index = 0;
  while (index < script.length) {
    const char = script[index] ?? '';
    const next = script[index + 1] ?? '';
    if (char === '-' && next === '-') {
      const end = script.indexOf('\n', index);
      index = end === -1 ? script.length : end;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = script.indexOf('*/', index + 2);
      index = end === -1 ? script.length : end + 2;
      current += ' ';
      continue;
    }
    if (char === "'" || char === '"') {
      // A quoted string or identifier; a doubled quote inside is the quote itself.
      let end = index + 1;
      while (end < script.length) {
        if (script[end] === char) {
          if (script[end + 1] === char) end += 2;
          else break;
        } else end += 1;
      }
      current += script.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    if (char === ';') {
      if (current.trim() !== '') statements.push(current.trim());
      current = '';
      index += 1;
      continue;
    }
    current += char;
    index += 1;
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}

/** A quoted (`"a""b"`) or bare identifier, optionally schema-qualified; the last part is kept. */
const IDENTIFIER = String.raw`(?:(?:"(?:[^"]|"")*"|\w+)\s*\.\s*)?(?:"(?:[^"]|"")*"|\w+)`;

/** The name an identifier written as in {@link IDENTIFIER} stands for. */
function identifierName(text: string): string {
  const parts = text.match(/"(?:[^"]|"")*"|\w+/g) ?? [text];
  const last = parts[parts.length - 1] ?? text;
  return last.startsWith('"') ? last.slice(1, -1).replaceAll('""', '"') : last;
}

/** The identifiers of a parenthesised list (`("a", "b")`), in order. */
function identifierList(text: string): string[] {
  return [...text.matchAll(/"(?:[^"]|"")*"|\w+/g)].map((match) => identifierName(match[0]));
}

/** `text` cut at the commas outside quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** What a `CREATE TABLE` body defines: each column's definition, and the columns of each table constraint. */
interface TableDefinition {
  readonly columns: ReadonlyMap<string, string>;
  readonly constraints: readonly { readonly text: string; readonly columns: readonly string[] }[];
}

/** Reads the body (between the outer parentheses) of a `CREATE TABLE`. */
function tableDefinition(body: string): TableDefinition {
  const columns = new Map<string, string>();
  const constraints: { text: string; columns: string[] }[] = [];
  for (const part of splitTopLevel(body)) {
    const normalized = part.replace(/\s+/g, ' ');
    const column = new RegExp(String.raw`^("(?:[^"]|"")*")\s*(.*)$`, 's').exec(normalized);
    if (column?.[1] !== undefined) {
      columns.set(identifierName(column[1]), column[2] ?? '');
      continue;
    }
    const keyColumns = /\b(?:FOREIGN\s+KEY|PRIMARY\s+KEY|UNIQUE)\s*\(([^)]*)\)/i.exec(normalized)?.[1];
    constraints.push({ text: normalized, columns: keyColumns === undefined ? [] : identifierList(keyColumns) });
  }
  return { columns, constraints };
}

/** The `CREATE TABLE` definitions of a script, by table name. */
function tableDefinitions(statements: readonly string[]): Map<string, TableDefinition> {
  const tables = new Map<string, TableDefinition>();
  for (const statement of statements) {
    const match = new RegExp(String.raw`^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${IDENTIFIER})\s*\(([\s\S]*)\)\s*$`, 'i').exec(
      statement,
    );
    if (match?.[1] !== undefined) tables.set(identifierName(match[1]), tableDefinition(match[2] ?? ''));
  }
  return tables;
}

/** What a redefined table's new definition changes against its previous one. */
function redefinitionChanges(table: string, next: TableDefinition, previous: TableDefinition | undefined): MigrationChange[] {
  if (!previous) return [{ kind: 'alter_table', table }];
  const changes: MigrationChange[] = [];
  for (const [column, definition] of next.columns) {
    const before = previous.columns.get(column);
    if (before === undefined) changes.push({ kind: 'add_column', table, column });
    else if (before !== definition) changes.push({ kind: 'alter_column', table, column });
  }
  for (const column of previous.columns.keys()) if (!next.columns.has(column)) changes.push({ kind: 'drop_column', table, column });
  const previousConstraints = new Set(previous.constraints.map((constraint) => constraint.text));
  const nextConstraints = new Set(next.constraints.map((constraint) => constraint.text));
  const changedConstraints = [
    ...next.constraints.filter((constraint) => !previousConstraints.has(constraint.text)),
    ...previous.constraints.filter((constraint) => !nextConstraints.has(constraint.text)),
  ];
  for (const constraint of changedConstraints) {
    const columns = constraint.columns.filter((column) => next.columns.has(column));
    if (columns.length === 0) changes.push({ kind: 'alter_table', table });
    for (const column of columns) changes.push({ kind: 'alter_column', table, column });
  }
  return changes.length > 0 ? changes : [{ kind: 'alter_table', table }];
}

/** The changes of one `ALTER TABLE` clause (`ADD COLUMN "x" TEXT`, `DROP CONSTRAINT "y"`, …). */
function alterClauseChanges(table: string, clause: string): MigrationChange[] {
  const text = clause.replace(/\s+/g, ' ').trim();
  const named = (pattern: string): string | undefined => {
    const match = new RegExp(`^${pattern}\\s*(${IDENTIFIER})`, 'i').exec(text);
    return match?.[1] === undefined ? undefined : identifierName(match[1]);
  };
  if (/^ADD\s+CONSTRAINT\b/i.test(text)) {
    const keyColumns = /\b(?:FOREIGN\s+KEY|PRIMARY\s+KEY|UNIQUE)\s*\(([^)]*)\)/i.exec(text)?.[1];
    const columns = keyColumns === undefined ? [] : identifierList(keyColumns);
    return columns.length > 0 ? columns.map((column) => ({ kind: 'alter_column', table, column })) : [{ kind: 'alter_table', table }];
  }
  if (/^(?:DROP|RENAME|ALTER|VALIDATE)\s+CONSTRAINT\b/i.test(text)) return [{ kind: 'alter_table', table }];
  const added = named(String.raw`ADD(?:\s+COLUMN)?(?:\s+IF\s+NOT\s+EXISTS)?`);
  if (added !== undefined) return [{ kind: 'add_column', table, column: added }];
  const dropped = named(String.raw`DROP(?:\s+COLUMN)?(?:\s+IF\s+EXISTS)?`);
  if (dropped !== undefined) return [{ kind: 'drop_column', table, column: dropped }];
  const altered = named(String.raw`(?:ALTER|RENAME)(?:\s+COLUMN)?`);
  if (altered !== undefined) return [{ kind: 'alter_column', table, column: altered }];
  return [{ kind: 'alter_table', table }];
}

/**
 * The changes `script` makes, in the order its statements make them (docs/decisions.md §9). `previousScript` is the SQL
 * creating the previous schema from nothing; without it a SQLite redefinition is only `alter_table`.
 */
export function migrationChanges(script: string, previousScript?: string): MigrationChange[] {
  const statements = splitStatements(script);
  const previousTables =
    previousScript === undefined ? new Map<string, TableDefinition>() : tableDefinitions(splitStatements(previousScript));
  // SQLite's redefinitions: `CREATE TABLE "new_X"` … `ALTER TABLE "new_X" RENAME TO "X"`.
  const redefined = new Map<string, string>();
  for (const statement of statements) {
    const rename = new RegExp(String.raw`^ALTER\s+TABLE\s+(${IDENTIFIER})\s+RENAME\s+TO\s+(${IDENTIFIER})\s*$`, 'i').exec(statement);
    if (rename?.[1] !== undefined && rename[2] !== undefined) {
      const from = identifierName(rename[1]);
      const to = identifierName(rename[2]);
      if (from === `new_${to}`) redefined.set(from, to);
    }
  }
  const redefinedTables = new Set(redefined.values());
  const changes: MigrationChange[] = [];
  for (const statement of statements) {
    const text = statement.replace(/\s+/g, ' ');
    const createTable = new RegExp(String.raw`^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${IDENTIFIER})\s*\(([\s\S]*)\)\s*$`, 'i').exec(
      statement,
    );
    if (createTable?.[1] !== undefined) {
      const name = identifierName(createTable[1]);
      const target = redefined.get(name);
      if (target === undefined) changes.push({ kind: 'create_table', table: name });
      else changes.push(...redefinitionChanges(target, tableDefinition(createTable[2] ?? ''), previousTables.get(target)));
      continue;
    }
    const dropTable = new RegExp(String.raw`^DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(${IDENTIFIER})`, 'i').exec(text);
    if (dropTable?.[1] !== undefined) {
      const name = identifierName(dropTable[1]);
      if (!redefinedTables.has(name)) changes.push({ kind: 'drop_table', table: name });
      continue;
    }
    const alterTable = new RegExp(String.raw`^ALTER\s+TABLE\s+(?:ONLY\s+)?(?:IF\s+EXISTS\s+)?(${IDENTIFIER})\s+([\s\S]*)$`, 'i').exec(
      statement,
    );
    if (alterTable?.[1] !== undefined) {
      const name = identifierName(alterTable[1]);
      if (redefined.has(name)) continue;
      for (const clause of splitTopLevel(alterTable[2] ?? '')) changes.push(...alterClauseChanges(name, clause));
      continue;
    }
    const createIndex = new RegExp(
      String.raw`^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(?:${IDENTIFIER}\s+)?ON\s+(?:ONLY\s+)?(${IDENTIFIER})\s*(?:USING\s+\w+\s*)?\(([^)]*)\)`,
      'i',
    ).exec(text);
    if (createIndex?.[2] !== undefined) {
      const table = identifierName(createIndex[2]);
      if (!redefinedTables.has(table))
        changes.push({ kind: 'create_index', table, columns: identifierList(createIndex[3] ?? ''), unique: createIndex[1] !== undefined });
      continue;
    }
    const dropIndex = new RegExp(String.raw`^DROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?(${IDENTIFIER})`, 'i').exec(text);
    if (dropIndex?.[1] !== undefined) {
      changes.push({ kind: 'drop_index', name: identifierName(dropIndex[1]) });
      continue;
    }
    const alterIndex = new RegExp(String.raw`^ALTER\s+INDEX\s+(?:IF\s+EXISTS\s+)?(${IDENTIFIER})`, 'i').exec(text);
    if (alterIndex?.[1] !== undefined) {
      changes.push({ kind: 'alter_index', name: identifierName(alterIndex[1]) });
      continue;
    }
    // PostgreSQL enums; the engine replaces one by way of `X_new` and `X_old`.
    const enumStatement = new RegExp(String.raw`^(CREATE|ALTER|DROP)\s+TYPE\s+(?:IF\s+EXISTS\s+)?(${IDENTIFIER})`, 'i').exec(text);
    if (enumStatement?.[1] !== undefined && enumStatement[2] !== undefined) {
      const raw = identifierName(enumStatement[2]);
      const name = raw.replace(/_(?:new|old)$/, '');
      const verb = enumStatement[1].toUpperCase();
      changes.push({ kind: raw !== name || verb === 'ALTER' ? 'alter_enum' : verb === 'CREATE' ? 'create_enum' : 'drop_enum', name });
    }
    // Anything else (PRAGMA, INSERT … SELECT of a redefinition, BEGIN, COMMIT) names nothing.
  }
  return changes;
}

/** The table an index name (`Post_status_id_idx`) belongs to, by the engine's `Table_columns_suffix` convention, among `tables`. */
function indexTable(name: string, tables: ReadonlySet<string>): string | undefined {
  return [...tables].filter((table) => name.startsWith(`${table}_`)).sort((a, b) => b.length - a.length)[0];
}

/** `Post_status_id_idx` → `post_status_id`; `Post_orgId_email_key` → `post_org_id_email`. */
function indexWords(name: string): string {
  return snakeCase(name.replace(/_(?:idx|key|fkey|pkey)$/, ''));
}

/**
 * The description of `changes` for a migration's name: created tables, then the columns added,
 * altered and dropped per table (`add_post_summary_slug`), tables altered otherwise, dropped
 * tables; index changes on tables nothing else touched; enum changes only when nothing else
 * changed (an enum column's type follows its column). At most 60 characters: what does not fit is
 * counted (`…_and_3_more`). `update` when nothing is recognised.
 */
export function describeChanges(changes: readonly MigrationChange[]): string {
  const created = new Set<string>();
  const dropped = new Set<string>();
  for (const change of changes) {
    if (change.kind === 'create_table') created.add(change.table);
    if (change.kind === 'drop_table') dropped.add(change.table);
  }
  const settled = (table: string): boolean => created.has(table) || dropped.has(table);
  // Column changes per table and verb, in order of appearance; a column added or dropped is not also "altered".
  const columns = new Map<string, Map<'add' | 'alter' | 'drop', string[]>>();
  const columnVerb = new Map<string, 'add' | 'alter' | 'drop'>();
  const altered = new Set<string>();
  for (const change of changes) {
    if (change.kind === 'alter_table' && !settled(change.table)) altered.add(change.table);
    if (change.kind !== 'add_column' && change.kind !== 'alter_column' && change.kind !== 'drop_column') continue;
    if (settled(change.table)) continue;
    const verb = change.kind === 'add_column' ? 'add' : change.kind === 'drop_column' ? 'drop' : 'alter';
    const key = `${change.table}\u0000${change.column}`;
    const known = columnVerb.get(key);
    if (known !== undefined && (known !== 'alter' || verb === 'alter')) continue;
    columnVerb.set(key, verb);
    const byVerb = columns.get(change.table) ?? new Map<'add' | 'alter' | 'drop', string[]>();
    columns.set(change.table, byVerb);
    if (known === 'alter')
      byVerb.set(
        'alter',
        (byVerb.get('alter') ?? []).filter((column) => column !== change.column),
      );
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), change.column]);
  }
  const touched = new Set<string>([...created, ...dropped, ...altered, ...columns.keys()]);
  const tableParts: string[] = [...created].map((table) => `create_${snakeCase(table)}`);
  for (const verb of ['add', 'alter', 'drop'] as const) {
    for (const [table, byVerb] of columns) {
      const names = byVerb.get(verb) ?? [];
      if (names.length > 0) tableParts.push(`${verb}_${snakeCase(table)}_${names.map(snakeCase).join('_')}`);
    }
  }
  for (const table of altered) if (!columns.has(table)) tableParts.push(`alter_${snakeCase(table)}`);
  for (const table of dropped) tableParts.push(`drop_${snakeCase(table)}`);

  const knownTables = new Set<string>(changes.flatMap((change) => ('table' in change ? [change.table] : [])));
  const indexParts: string[] = [];
  for (const change of changes) {
    if (change.kind === 'create_index' && !touched.has(change.table))
      indexParts.push(`${change.unique ? 'unique' : 'index'}_${snakeCase(change.table)}_${change.columns.map(snakeCase).join('_')}`);
    if (change.kind === 'drop_index' || change.kind === 'alter_index') {
      const table = indexTable(change.name, knownTables);
      if (table === undefined || !touched.has(table))
        indexParts.push(
          `${change.kind === 'drop_index' ? 'drop' : 'alter'}_${change.name.endsWith('_key') ? 'unique' : 'index'}_${indexWords(change.name)}`,
        );
    }
  }
  const parts = [...tableParts, ...indexParts];
  if (parts.length === 0) {
    for (const change of changes) {
      if (change.kind === 'create_enum' || change.kind === 'alter_enum' || change.kind === 'drop_enum')
        parts.push(`${change.kind.replace('_enum', '')}_enum_${snakeCase(change.name)}`);
    }
  }
  return fit([...new Set(parts)]) || 'update';
}

/** `parts` joined with `_`, within {@link MAX_DESCRIPTION} characters; what does not fit is counted. */
function fit(parts: readonly string[]): string {
  const whole = parts.join('_');
  if (whole.length <= MAX_DESCRIPTION) return whole;
  for (let kept = parts.length - 1; kept >= 1; kept--) {
    const text = `${parts.slice(0, kept).join('_')}_and_${parts.length - kept}_more`;
    if (text.length <= MAX_DESCRIPTION) return text;
  }
  return whole.slice(0, MAX_DESCRIPTION).replace(/_+$/, '');
}

/**
 * The description part of the name of the migration running `script` (`create_comment`), from the
 * tables, columns, indexes and enums its statements change; see {@link describeChanges}
 * (docs/decisions.md §9).
 */
export function describeMigration(script: string, previousScript?: string): string {
  return describeChanges(migrationChanges(script, previousScript));
}

/** Whether `script` redefines a table (SQLite), so naming it needs the previous schema's full script. */
export function redefinesTables(script: string): boolean {
  return /\bCREATE\s+TABLE\s+"new_/i.test(script);
}
