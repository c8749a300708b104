/**
 * Emits `graphql/relations.ts`: the resolvers of exposed relation fields (docs/behaviour.md §2.1, §2.2) and of
 * computed fields (`@ResolveField`). Relations go through the request's loaders: belongs_to by
 * primary key (null when the caller may not read the parent), has_many as one ranked statement
 * per level, both under the caller's row scope.
 */
import { providerVariable } from '../../model/naming.js';
import { type EmitContext, exposedEntities, tsArgumentType } from '../context.js';
import { argumentValue } from './resolvers.js';
import { type GeneratedFile, parameterList, quote, RUNTIME_FOR_GENERATED_CODE, TypeScriptFile, writeDoc } from '../writer.js';

/** The `graphql/relations.ts` file. */
export function emitRelations(context: EmitContext): GeneratedFile {
  const { app } = context;
  const file = new TypeScriptFile(
    'graphql/relations.ts',
    context,
    "Resolvers of relation fields and computed fields (docs/behaviour.md §2.1, §2.2, §5.8). Relations load through the\nrequest's loaders: one primary-key batch (belongs_to) or one ranked statement (has_many) per level.",
  );
  const { body: w, imports } = file;
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const resolverMap = imports.type(RUNTIME_FOR_GENERATED_CODE, 'IResolvers');
  const graphqlContext = imports.type('runtime/graphql/context.ts', 'GraphQLContext');
  const computed = app.mounted.resolvers.flatMap((resolver) => resolver.fieldResolvers);
  const owners = [...new Set(computed.map((field) => providerVariable(field.owner)))].sort();
  writeDoc(w, ['The resolvers of every exposed relation and computed field, by type.']);
  w.write(
    `export function createRelationResolvers(${owners.length > 0 ? 'container' : '_container'}: ${container}): ${resolverMap}<unknown, ${graphqlContext}>`,
  ).block(() => {
    if (owners.length > 0) w.writeLine(`const { ${owners.join(', ')} } = container;`);
    w.write('return ').inlineBlock(() => {
      for (const entity of exposedEntities(app)) {
        const relations = entity.wireRelations;
        const fields = app.mounted.fieldResolversByEntity.get(entity.name) ?? [];
        if (relations.length === 0 && fields.length === 0) continue;
        w.write(`${entity.name}: `).inlineBlock(() => {
          for (const relation of relations) {
            const { target, keyColumn } = relation;
            if (relation.kind === 'belongsTo') {
              writeDoc(w, [
                `${entity.name}.${relation.name} → the ${target} whose id is ${entity.name}.${keyColumn} (belongs_to): a primary-key batch; null when the caller may not read it.`,
              ]);
              w.writeLine(
                `${relation.name}: (parent: object, _args: unknown, context: ${graphqlContext}, info: ${imports.type(RUNTIME_FOR_GENERATED_CODE, 'GraphQLResolveInfo')}) => context.loaders.belongsTo(${quote(target)}, parent, ${quote(keyColumn)}, info),`,
              );
            } else if (relation.kind === 'manyToMany') {
              const through = relation.through ?? '';
              const targetColumn = relation.targetColumn ?? '';
              writeDoc(w, [
                `${entity.name}.${relation.name} → ${target} rows linked to this ${entity.name} by ${through} rows (${through}.${keyColumn} → ${through}.${targetColumn}; many_to_many): one ranked statement per level, the join rows and the ${target} rows both scoped.`,
              ]);
              w.writeLine(
                `${relation.name}: (parent: object, args: { readonly first?: number | null; readonly after?: string | null }, context: ${graphqlContext}, info: ${imports.type(RUNTIME_FOR_GENERATED_CODE, 'GraphQLResolveInfo')}) => context.loaders.manyToMany(${quote(target)}, { entity: ${quote(through)}, from: ${quote(keyColumn)}, to: ${quote(targetColumn)} }, parent, args, info),`,
              );
            } else {
              writeDoc(w, [
                `${entity.name}.${relation.name} → ${target} rows whose ${keyColumn} is this ${entity.name}'s id (has_many): one ranked statement per level, scoped.`,
              ]);
              w.writeLine(
                `${relation.name}: (parent: object, args: { readonly first?: number | null; readonly after?: string | null }, context: ${graphqlContext}, info: ${imports.type(RUNTIME_FOR_GENERATED_CODE, 'GraphQLResolveInfo')}) => context.loaders.hasMany(${quote(target)}, ${quote(keyColumn)}, parent, args, info),`,
              );
            }
          }
          for (const field of fields) {
            const ownerType = imports.type(field.file, field.owner);
            writeDoc(w, [
              field.doc,
              `${entity.name}.${field.fieldName} → ${field.owner}.${field.methodName} (${field.file}:${field.span.line}), computed from ${field.batched ? 'every parent of a level at once: one call per level' : 'the parent'}.`,
            ]);
            const argsType =
              field.params.length > 0
                ? `{ ${field.params.map((param) => `readonly ${param.name}${param.type.nullable ? '?' : ''}: ${tsArgumentType(app, param.type, imports)}`).join('; ')} }`
                : 'unknown';
            const argumentValues = field.params.map((param) => argumentValue(param, `args.${param.name}`));
            const parentType = `Parameters<${ownerType}['${field.methodName}']>[0]`;
            const method = `${providerVariable(field.owner)}.${field.methodName}`;
            if (field.batched) {
              // Every parent of a level in one call, through the request's loaders (docs/behaviour.md §2.1, §8).
              const parameters = parameterList([
                { name: 'parent', type: `${parentType}[number]`, used: true },
                { name: 'args', type: argsType, used: true },
                { name: 'context', type: graphqlContext, used: true },
              ]);
              const compute = `(parents: ${parentType}) => ${method}(${['parents', ...argumentValues].join(', ')})`;
              w.writeLine(
                `${field.fieldName}: (${parameters}) => context.loaders.computed(${quote(`${entity.name}.${field.fieldName}`)}, args, parent, ${compute}),`,
              );
            } else {
              const parameters = parameterList([
                { name: 'parent', type: parentType, used: true },
                { name: 'args', type: argsType, used: field.params.length > 0 },
              ]);
              w.writeLine(`${field.fieldName}: (${parameters}) => ${method}(${['parent', ...argumentValues].join(', ')}),`);
            }
          }
        });
        w.write(',').newLine();
      }
    });
    w.write(';');
  });
  return file.render();
}
