/**
 * Emits `mcp.ts` when a mounted operation or route is an MCP tool (docs/behaviour.md §4.6): the
 * host's name, path and instructions, and each tool — its name, description, readOnly hint,
 * posture, parameters (the structure each is checked against, the zod schema describing it, its
 * pipes) and the call of the declared method with Result unwrapping and masking. Names, bindings
 * and postures are the tools' resolved fields (resolve/mcp.ts); nothing is decided here.
 */
import type { McpToolModel, McpToolParamModel, MountedMcpModel } from '../../model/model.js';
import { fieldsConstant, pipesConstant, providerVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { writePipeConstants } from '../pipes.js';
import { type GeneratedFile, type ImportSet, parameterList, quote, TypeScriptFile, writeDoc } from '../writer.js';
import { inputConstant, inputFieldLiteral } from './entities.js';

/** The name the host gives clients when the application declares no `@McpHost()` class. */
const DEFAULT_HOST_NAME = 'resource-service';

/** Where a tool comes from and its posture, for its docstring. */
function origin(tool: McpToolModel): string {
  const source = tool.source.kind === 'operation' ? `${tool.source.operationType === 'query' ? 'Query' : 'Mutation'}.${tool.source.fieldName}` : `${tool.source.method} ${tool.source.fullPath}`;
  const posture = tool.posture?.kind === 'authorized' ? `authorized: ${tool.posture.action} ${tool.posture.subject}` : 'public (ungated)';
  return `tool ${tool.name} → ${source} → ${tool.owner}.${tool.methodName} (${tool.file}:${tool.span.line}); ${posture}.`;
}

class ToolWriter {
  constructor(
    private readonly context: EmitContext,
    private readonly file: TypeScriptFile,
  ) {}

  private get imports(): ImportSet {
    return this.file.imports;
  }

  /** The `McpToolParameter` literal of one parameter. */
  private parameter(tool: McpToolModel, param: McpToolParamModel): string {
    const named = param.type.named;
    if (named.kind === 'input') this.imports.value(`${this.context.outputDir}/entities.ts`, inputConstant(named.name));
    const parts = [
      `name: ${quote(param.name)}`,
      `field: ${inputFieldLiteral(this.context.app, { ...param.type, nullable: param.optional })}`,
      `binding: '${param.binding}'`,
      ...(param.zodSchema ? [`schema: ${this.imports.ref(param.zodSchema)}`] : []),
      `pipes: ${param.pipes.length > 0 ? pipesConstant(tool.owner, tool.methodName, param.name) : '[]'}`,
    ];
    return `{ ${parts.join(', ')} }`;
  }

  /** The expression returned for the method's value `value`: unwrapped from a Result, masked behind a gate. */
  private returned(tool: McpToolModel): string {
    const shape = tool.returns;
    if (shape.kind === 'void') return 'null';
    const value = shape.result ? `${this.imports.value('runtime/failures/result.ts', 'unwrap')}(value)` : 'value';
    const entity = tool.returnedEntity;
    if (!entity || tool.posture?.kind !== 'authorized') return value;
    const mask = this.imports.value('runtime/auth/ability.ts', 'maskOutput');
    const fields = this.imports.value(`${this.context.outputDir}/entities.ts`, fieldsConstant(entity));
    if (shape.kind === 'page') return shape.result ? `((page) => ({ ...page, items: ${mask}(request, ${quote(entity)}, ${fields}, page.items) }))(${value})` : `{ ...value, items: ${mask}(request, ${quote(entity)}, ${fields}, value.items) }`;
    return `${mask}(request, ${quote(entity)}, ${fields}, ${value})`;
  }

  write(tool: McpToolModel): void {
    const w = this.file.body;
    writeDoc(w, [tool.doc, origin(tool)]);
    w.write('').inlineBlock(() => {
      w.writeLine(`name: ${quote(tool.name)},`);
      if (tool.title !== undefined) w.writeLine(`title: ${quote(tool.title)},`);
      if (tool.description !== undefined) w.writeLine(`description: ${quote(tool.description)},`);
      w.writeLine(`readOnly: ${tool.readOnly},`);
      const posture = tool.posture;
      w.writeLine(`posture: ${posture?.kind === 'authorized' ? `{ kind: 'authorized', action: ${quote(posture.action)}, subject: ${quote(posture.subject)} }` : "{ kind: 'public' }"},`);
      if (tool.params.length === 0) w.writeLine('parameters: [],');
      else {
        w.write('parameters: [').indent(() => {
          for (const param of tool.params) w.writeLine(`${this.parameter(tool, param)},`);
        });
        w.writeLine('],');
      }
      const ownerType = (): string => this.imports.type(tool.file, tool.owner);
      const args = tool.params.map((param, index) => {
        const value = `args.${param.name}`;
        // Page sizes and cursors are already what the method takes; anything else is cast to its parameter type.
        if (param.binding !== 'value') return `${value} as Parameters<${ownerType()}['${tool.methodName}']>[${index}]`;
        return `${param.absent === 'null' ? `(${value} ?? null)` : value} as Parameters<${ownerType()}['${tool.methodName}']>[${index}]`;
      });
      const masked = tool.returns.kind !== 'void' && tool.returnedEntity !== undefined && tool.posture?.kind === 'authorized';
      const parameters = parameterList([
        { name: 'args', used: tool.params.length > 0 },
        { name: 'request', used: masked },
      ]);
      const call = `${tool.returns.promised ? 'await ' : ''}${providerVariable(tool.owner)}.${tool.methodName}(${args.join(', ')})`;
      w.write(`invoke: ${tool.returns.promised ? 'async ' : ''}(${parameters}) => `).inlineBlock(() => {
        if (tool.returns.kind === 'void') {
          w.writeLine(`${call};`);
          w.writeLine('return null;');
          return;
        }
        w.writeLine(`const value = ${call};`);
        w.writeLine(`return ${this.returned(tool)};`);
      });
      w.write(',').newLine();
    });
    w.write(',').newLine();
  }
}

/** The `mcp.ts` file of the mounted MCP host. */
export function emitMcp(context: EmitContext, mcp: MountedMcpModel): GeneratedFile {
  const file = new TypeScriptFile(
    'mcp.ts', context,
    'The MCP host (docs/behaviour.md §4.6): each tool with its description, posture and parameters, and the call of\nthe declared method, Result unwrapping and masking. runtime/transports/mcp/ gates, checks and pipes the arguments.',
  );
  const { body: w, imports } = file;
  writePipeConstants(file, mcp.tools.map((tool) => ({ owner: tool.owner, methodName: tool.methodName, label: `tool ${tool.name}`, noun: 'parameter', params: tool.params })));
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const definition = imports.type('runtime/transports/mcp/index.ts', 'McpHostDefinition');
  writeDoc(w, ['The MCP host and its tools, bound to the container\'s instances.']);
  w.write(`export function createMcpHost(container: ${container}): ${definition}`).block(() => {
    const owners = [...new Set(mcp.tools.map((tool) => providerVariable(tool.owner)))].sort();
    w.writeLine(`const { ${owners.join(', ')} } = container;`);
    w.write('return ').inlineBlock(() => {
      w.writeLine(`name: ${quote(mcp.host?.name ?? DEFAULT_HOST_NAME)},`);
      w.writeLine(`path: ${quote(mcp.path)},`);
      if (mcp.host?.description !== undefined) w.writeLine(`instructions: ${quote(mcp.host.description)},`);
      w.write('tools: [').indent(() => {
        const writer = new ToolWriter(context, file);
        for (const tool of mcp.tools) writer.write(tool);
      });
      w.writeLine('],');
    });
    w.write(';');
  });
  return file.render();
}
