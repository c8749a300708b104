/**
 * Emits `listeners.ts` for the listeners transport (docs/behaviour.md §10.3): one listener per
 * `@OnEvent` method, naming the event, the method it runs and where it is written.
 */
import { providerVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The `listeners.ts` file, or undefined when no mounted provider declares a listener. */
export function emitListeners(context: EmitContext): GeneratedFile | undefined {
  const listeners = context.app.mounted.listeners;
  if (listeners.length === 0) return undefined;
  const file = new TypeScriptFile(
    'listeners.ts',
    context,
    'In-process listeners (docs/behaviour.md §10.3): every `@OnEvent` method and the event it runs for, in the\nprocess that published it, after the write committed, unscoped; an error is logged, never returned.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/transports/listeners/index.ts', 'ListenerDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  writeDoc(w, ['Every listener, for the listeners transport.']);
  w.write(`export function createListeners(container: ${container}): readonly ${definition}[]`).block(() => {
    w.writeLine(`const { ${[...new Set(listeners.map((listener) => providerVariable(listener.owner)))].sort().join(', ')} } = container;`);
    w.write('return [').indent(() => {
      for (const listener of listeners) {
        writeDoc(w, [`${listener.event ?? ''} → ${listener.owner}.${listener.methodName} (${listener.file}:${listener.span.line}).`]);
        const owner = imports.type(listener.file, listener.owner);
        const payload = listener.payloadTyped ? `payload as Parameters<${owner}['${listener.methodName}']>[0]` : 'payload';
        const call = `${providerVariable(listener.owner)}.${listener.methodName}(${listener.takesPayload ? payload : ''})`;
        w.writeLine(
          `{ event: ${quote(listener.event ?? '')}, handler: ${quote(`${listener.owner}.${listener.methodName}`)}, handle: (${listener.takesPayload ? 'payload' : ''}) => ${call} },`,
        );
      }
    });
    w.writeLine('];');
  });
  return file.render();
}
