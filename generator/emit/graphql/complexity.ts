/**
 * Emits `graphql/complexity.ts` (spec §8): the score of every field that does not use the default
 * `1 + children` — has_many relations (`first × children`) and `@Complexity` overrides — and the
 * connection types that are transparent for scoring and depth.
 */
import { checkComplexityExpression } from '../../model/complexity.js';
import { connectionType, edgeType } from '../../model/naming.js';
import { type EmitContext, exposedEntities } from '../context.js';
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

/** Every connection type the schema has (children of exposed has_many relations), plus PageInfo. */
export function connectionTypeNames(context: EmitContext): string[] {
  const children = new Set<string>();
  for (const entity of exposedEntities(context.model)) {
    for (const relation of entity.relations) if (relation.kind === 'hasMany' && relation.exposed) children.add(relation.target);
  }
  if (children.size === 0) return [];
  return ['PageInfo', ...[...children].flatMap((child) => [connectionType(child), edgeType(child)])].sort();
}

/** The `graphql/complexity.ts` file. */
export function emitComplexity(context: EmitContext): GeneratedFile {
  const file = new TypeScriptFile('graphql/complexity.ts', context, 'Query complexity (spec §8): scores of relation fields and @Complexity overrides; every other field\nscores 1 + its children. `first` is the page size the field will use (absent → 20, clamped to 1..=100).');
  const { body: w, imports } = file;
  const fieldComplexity = imports.type('runtime/graphql/limits.ts', 'FieldComplexity');
  const scored: ScoredField[] = [];
  for (const entity of exposedEntities(context.model)) {
    for (const relation of entity.relations) {
      if (!relation.exposed) continue;
      const key = `${entity.name}.${relation.name}`;
      const override = relation.complexity ? fromExpression(relation.complexity) : undefined;
      if (override) scored.push({ key, doc: `${key}: @Complexity(${relation.complexity}).`, source: override });
      else if (relation.kind === 'hasMany') scored.push({ key, doc: `${key}: has_many, first × children.`, source: '({ first, childComplexity }) => first * childComplexity' });
    }
  }
  for (const resolver of context.application.resolvers) {
    for (const operation of resolver.operations) {
      const source = operation.complexity ? fromExpression(operation.complexity) : undefined;
      const root = operation.operationType === 'query' ? 'Query' : operation.operationType === 'mutation' ? 'Mutation' : 'Subscription';
      if (source) scored.push({ key: `${root}.${operation.fieldName}`, doc: `${root}.${operation.fieldName}: @Complexity(${operation.complexity}).`, source });
    }
    for (const field of resolver.fieldResolvers) {
      const source = field.complexity && field.entity ? fromExpression(field.complexity) : undefined;
      if (source) scored.push({ key: `${field.entity}.${field.fieldName}`, doc: `${field.entity}.${field.fieldName}: @Complexity(${field.complexity}).`, source });
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
