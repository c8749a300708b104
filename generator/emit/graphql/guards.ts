/**
 * Emits `graphql/guards.ts` (spec §5.2–§5.4): the guard chain of every root field — global guards,
 * then the resolver's, then the operation's, each guard once — and the guard instances by name.
 */
import { AUTHENTICATION_GUARD, AUTHORIZATION_GUARD, BUILTIN_GUARDS, guardChain } from '../../model/application.js';
import { providerVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The `graphql/guards.ts` file. */
export function emitGuards(context: EmitContext): GeneratedFile {
  const { application } = context;
  const file = new TypeScriptFile('graphql/guards.ts', context, 'Guards of GraphQL operations (spec §5.2–§5.4): the chain of every root field, global guards first;\na guard bound at several scopes appears once, so it runs once per operation.');
  const { body: w, imports } = file;
  const chains: [string, string[]][] = [];
  const userGuards = new Set<string>();
  for (const resolver of application.resolvers) {
    for (const operation of resolver.operations) {
      const root = operation.operationType === 'query' ? 'Query' : operation.operationType === 'mutation' ? 'Mutation' : 'Subscription';
      const names = guardChain(application, resolver, operation.guards).map((binding) => binding.guard.exportName);
      chains.push([`${root}.${operation.fieldName}`, names]);
    }
  }
  const globalNames = (application.root?.guards ?? []).map((binding) => binding.guard.exportName).filter((name, index, all) => all.indexOf(name) === index);
  for (const [, names] of chains) for (const name of names) if (!BUILTIN_GUARDS.some((builtin) => builtin.ref.exportName === name)) userGuards.add(name);
  for (const name of globalNames) if (!BUILTIN_GUARDS.some((builtin) => builtin.ref.exportName === name)) userGuards.add(name);

  writeDoc(w, ['The guard chain of every root field, by `Type.field`.']);
  w.write('export const OPERATION_GUARDS: Readonly<Record<string, readonly string[]>> = ').inlineBlock(() => {
    for (const [field, names] of chains.sort(([a], [b]) => a.localeCompare(b))) w.writeLine(`${quote(field)}: [${names.map(quote).join(', ')}],`);
  });
  w.write(';').newLine().blankLine();
  writeDoc(w, ['The chain of an operation selecting no declared field (introspection): the global guards.']);
  w.writeLine(`export const GLOBAL_GUARDS: readonly string[] = [${globalNames.map(quote).join(', ')}];`);
  w.blankLine();
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const runtimeGuards = imports.type('runtime/guards.ts', 'RuntimeGuards');
  const canActivate = imports.type('runtime/guards.ts', 'CanActivate');
  writeDoc(w, ['Every guard instance, by the name it is declared by.']);
  w.write(`export function createGuards(${userGuards.size > 0 ? 'container' : '_container'}: ${container}, runtime: ${runtimeGuards}): Readonly<Record<string, ${canActivate}>>`).block(() => {
    w.write('return ').inlineBlock(() => {
      for (const builtin of [AUTHENTICATION_GUARD, AUTHORIZATION_GUARD]) w.writeLine(`${builtin.ref.exportName}: runtime.${builtin.runtimeKey},`);
      for (const name of [...userGuards].sort()) w.writeLine(`${name}: container.${providerVariable(name)},`);
    });
    w.write(';');
  });
  return file.render();
}
