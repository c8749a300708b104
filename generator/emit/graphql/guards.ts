/**
 * Emits `graphql/guards.ts` (docs/behaviour.md §5.2–§5.4): the guard chain of every root field — global guards,
 * then the resolver's, then the operation's, each guard once — and the guard instances by name.
 */
import { AUTHENTICATION_GUARD, AUTHORIZATION_GUARD, BUILTIN_GUARDS } from '../../model/builtins.js';
import { providerVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The `graphql/guards.ts` file. */
export function emitGuards(context: EmitContext): GeneratedFile {
  const { mounted } = context.app;
  const file = new TypeScriptFile(
    'graphql/guards.ts',
    context,
    'Guards of GraphQL operations (docs/behaviour.md §5.2–§5.4): the chain of every root field, global guards first;\na guard bound at several scopes appears once, so it runs once per operation.',
  );
  const { body: w, imports } = file;
  const chains: [string, string[]][] = [];
  const userGuards = new Set<string>();
  for (const resolver of mounted.resolvers) {
    for (const operation of resolver.operations)
      chains.push([`${operation.rootType}.${operation.fieldName}`, operation.guardChain.map((binding) => binding.name)]);
  }
  const globalNames = [...new Set((mounted.root?.guards ?? []).map((binding) => binding.name))];
  const builtinNames = new Set(BUILTIN_GUARDS.map((builtin) => builtin.ref.exportName));
  for (const [, names] of chains) for (const name of names) if (!builtinNames.has(name)) userGuards.add(name);
  for (const name of globalNames) if (!builtinNames.has(name)) userGuards.add(name);

  writeDoc(w, ['The guard chain of every root field, by `Type.field`.']);
  w.write('export const OPERATION_GUARDS: Readonly<Record<string, readonly string[]>> = ').inlineBlock(() => {
    for (const [field, names] of chains.sort(([a], [b]) => a.localeCompare(b)))
      w.writeLine(`${quote(field)}: [${names.map(quote).join(', ')}],`);
  });
  w.write(';').newLine().blankLine();
  writeDoc(w, ['The chain of an operation selecting no declared field (introspection): the global guards.']);
  w.writeLine(`export const GLOBAL_GUARDS: readonly string[] = [${globalNames.map(quote).join(', ')}];`);
  w.blankLine();
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const runtimeGuards = imports.type('runtime/auth/guards.ts', 'RuntimeGuards');
  const canActivate = imports.type('runtime/auth/guards.ts', 'CanActivate');
  writeDoc(w, ['Every guard instance, by the name it is declared by.']);
  w.write(
    `export function createGuards(${userGuards.size > 0 ? 'container' : '_container'}: ${container}, runtime: ${runtimeGuards}): Readonly<Record<string, ${canActivate}>>`,
  ).block(() => {
    w.write('return ').inlineBlock(() => {
      for (const builtin of [AUTHENTICATION_GUARD, AUTHORIZATION_GUARD])
        w.writeLine(`${builtin.ref.exportName}: runtime.${builtin.runtimeKey},`);
      for (const name of [...userGuards].sort()) w.writeLine(`${name}: container.${providerVariable(name)},`);
    });
    w.write(';');
  });
  return file.render();
}
