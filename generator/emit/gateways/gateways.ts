/**
 * Emits `gateways.ts`: every mounted WebSocket gateway with its versioned socket path and its
 * message handlers, each behind its posture gate.
 */
import { providerVariable } from '../../model/naming.js';
import { type EmitContext, postureCall } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The socket path of a gateway: `/v<version>/<path>` or `/<path>`. */
function gatewayPath(path: string, version: string | undefined): string {
  return `${version === undefined ? '' : `/v${version}`}/${path}`;
}

/** The `gateways.ts` file. */
export function emitGateways(context: EmitContext): GeneratedFile {
  const { app } = context;
  const file = new TypeScriptFile(
    'gateways.ts',
    context,
    'WebSocket gateways (docs/behaviour.md §4.4, §9.5): each at its versioned socket path, neutral to header and\nmedia-type version selection; each message handler behind its posture gate.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/transports/gateways/index.ts', 'GatewayDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const gateways = app.mounted.gateways;
  writeDoc(w, ['Every mounted gateway.']);
  w.write(
    `export function createGateways(${gateways.length > 0 ? 'container' : '_container'}: ${container}): readonly ${definition}[]`,
  ).block(() => {
    if (gateways.length === 0) {
      w.writeLine('return [];');
      return;
    }
    w.writeLine(
      `const { ${gateways
        .map((gateway) => providerVariable(gateway.name))
        .sort()
        .join(', ')} } = container;`,
    );
    w.write('return [').indent(() => {
      for (const gateway of gateways) {
        const source = gateway.file;
        w.write('').inlineBlock(() => {
          w.writeLine(`name: ${quote(gateway.name)},`);
          w.writeLine(`path: ${quote(gatewayPath(gateway.path, gateway.version))},`);
          w.writeLine(`version: ${gateway.version === undefined ? 'undefined' : quote(gateway.version)},`);
          w.write('handlers: [').indent(() => {
            for (const handler of gateway.handlers) {
              const posture = handler.posture;
              writeDoc(w, [
                `${handler.event} → ${gateway.name}.${handler.methodName} (${source}:${handler.span.line}); ${posture?.kind === 'authorized' ? `authorized: ${posture.action} ${posture.subject}` : 'public (ungated)'}.`,
              ]);
              const data = handler.dataTyped
                ? `data as Parameters<${imports.type(source, gateway.name)}['${handler.methodName}']>[0]`
                : 'data';
              const call = postureCall(
                imports,
                posture,
                `${providerVariable(gateway.name)}.${handler.methodName}(${handler.takesData ? data : ''})`,
                false,
              );
              const dataName = handler.takesData ? 'data' : '_data';
              if (posture?.kind === 'authorized') {
                const authorize = imports.value('runtime/auth/posture.ts', 'authorize');
                w.write(`{ event: ${quote(handler.event)}, handle: (${dataName}, call) => `).inlineBlock(() => {
                  w.writeLine(`${authorize}(call.request, call.authentication, ${quote(posture.action)}, ${quote(posture.subject)});`);
                  w.writeLine(`return ${call};`);
                });
                w.write(' },').newLine();
              } else {
                w.writeLine(`{ event: ${quote(handler.event)}, handle: (${dataName}) => ${call} },`);
              }
            }
          });
          w.writeLine('],');
        });
        w.write(',').newLine();
      }
    });
    w.writeLine('];');
  });
  return file.render();
}
