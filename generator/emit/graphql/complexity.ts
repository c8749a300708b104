/**
 * Emits `graphql/complexity.ts` (docs/behaviour.md §8, docs/hostile-input.md §3): the score of every field that
 * does not use the default `1 + children` — has_many relations (`first × children`), operations
 * returning a keyset page (`first × children`) or a whole list (`LIST_CAP × children`), computed
 * fields returning a list of entities (`LIST_CAP × children`) and `@Complexity` overrides — and the
 * connection types that are transparent for scoring and depth. A score counts what execution will
 * load: one row per item a list may hold.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '../../../runtime/data/keyset.js';
import { checkComplexityExpression } from '../../model/complexity.js';
import { connectionType, edgeType } from '../../model/naming.js';
import type { ReturnShape } from '../../model/types.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** Scored fields: `Type.field`, a doc line and the function source. */
interface ScoredField {
  readonly key: string;
  readonly doc: string;
  readonly source: string;
}

function fromExpression(expression: string): string | undefined {
  const checked = checkComplexityExpression(expression);
  if (!checked.ok) return undefined;
  const parameters = checked.names.length > 0 ? `{ ${checked.names.join(', ')} }` : '_input';
  return `(${parameters}) => ${checked.text}`;
}

/**
 * The default score of an operation or computed field by what it returns: a keyset page loads up to
 * `first` rows, a list of entities up to `LIST_CAP`; anything else keeps `1 + children`.
 */
function listScore(returns: ReturnShape, listCap: () => string): { readonly doc: string; readonly source: string } | undefined {
  if (returns.kind === 'page')
    return { doc: 'returns a keyset page, first × children', source: '({ first, childComplexity }) => first * childComplexity' };
  if (returns.kind === 'value' && returns.type.list && returns.type.named.kind === 'entity') {
    return { doc: 'returns a whole list, LIST_CAP × children', source: `({ childComplexity }) => ${listCap()} * childComplexity` };
  }
  return undefined;
}

/** Every connection type the schema has (targets of exposed has_many and many_to_many relations), plus PageInfo. */
function connectionTypeNames(context: EmitContext): string[] {
  const children = new Set<string>();
  for (const entity of context.app.entities) {
    for (const relation of entity.wireRelations) if (relation.kind !== 'belongsTo') children.add(relation.target);
  }
  if (children.size === 0) return [];
  return ['PageInfo', ...[...children].flatMap((child) => [connectionType(child), edgeType(child)])].sort();
}

/** The `graphql/complexity.ts` file. */
export function emitComplexity(context: EmitContext): GeneratedFile {
  const file = new TypeScriptFile(
    'graphql/complexity.ts',
    context,
    `Query complexity (docs/behaviour.md §8): scores of relation fields, list operations and @Complexity overrides; every\nother field scores 1 + its children. \`first\` is the page size the field will use (absent → ${DEFAULT_PAGE_SIZE}, clamped to ${MIN_PAGE_SIZE}..=${MAX_PAGE_SIZE}).`,
  );
  const { body: w, imports } = file;
  const fieldComplexity = imports.type('runtime/graphql/limits.ts', 'FieldComplexity');
  const listCap = (): string => imports.value('runtime/data/keyset.ts', 'LIST_CAP');
  const scored: ScoredField[] = [];
  for (const entity of context.app.entities) {
    for (const relation of entity.wireRelations) {
      const key = `${entity.name}.${relation.name}`;
      const override = relation.complexity ? fromExpression(relation.complexity) : undefined;
      if (override) scored.push({ key, doc: `${key}: @Complexity(${relation.complexity}).`, source: override });
      else if (relation.kind !== 'belongsTo')
        scored.push({
          key,
          doc: `${key}: ${relation.kind === 'hasMany' ? 'has_many' : 'many_to_many'}, first × children.`,
          source: '({ first, childComplexity }) => first * childComplexity',
        });
    }
  }
  for (const resolver of context.app.mounted.resolvers) {
    for (const operation of resolver.operations) {
      const source = operation.complexity ? fromExpression(operation.complexity) : undefined;
      const key = `${operation.rootType}.${operation.fieldName}`;
      // A subscription's score is per event: one item, whatever its type.
      const list = source || operation.operationType === 'subscription' ? undefined : listScore(operation.returns, listCap);
      if (source) scored.push({ key, doc: `${key}: @Complexity(${operation.complexity}).`, source });
      else if (list) scored.push({ key, doc: `${key}: ${list.doc}.`, source: list.source });
    }
    for (const field of resolver.fieldResolvers) {
      if (!field.entity) continue;
      const key = `${field.entity}.${field.fieldName}`;
      const source = field.complexity ? fromExpression(field.complexity) : undefined;
      const list = source ? undefined : listScore(field.returns, listCap);
      if (source) scored.push({ key, doc: `${key}: @Complexity(${field.complexity}).`, source });
      else if (list) scored.push({ key, doc: `${key}: ${list.doc}.`, source: list.source });
    }
  }
  writeDoc(w, ['Scores of fields that do not use the default, by `Type.field`.']);
  w.write(`export const FIELD_COMPLEXITY: Readonly<Record<string, ${fieldComplexity}>> = `).inlineBlock(() => {
    for (const field of scored.sort((a, b) => a.key.localeCompare(b.key))) {
      writeDoc(w, [field.doc]);
      w.writeLine(`${quote(field.key)}: ${field.source},`);
    }
  });
  w.write(';').newLine().blankLine();
  writeDoc(w, ['Connection plumbing: transparent for scoring and depth.']);
  w.writeLine(`export const CONNECTION_TYPES: readonly string[] = [${connectionTypeNames(context).map(quote).join(', ')}];`);
  return file.render();
}
