/**
 * Emits `mcp.ts` when a mounted operation or route is an MCP tool (docs/behaviour.md §4.6): the
 * host's name, path and instructions, and each tool — its name, description, readOnly hint,
 * posture, parameters (the structure each is checked against, the zod schema describing it, its
 * pipes) and the call of the declared method with Result unwrapping and masking. Names, bindings
 * and postures are the tools' resolved fields (resolve/mcp.ts); nothing is decided here.
 */
import type { JsonSchema } from '../../../runtime/http/openapi.js';
import type { McpToolModel, McpToolParamModel, MountedMcpModel, ResolvedApp } from '../../model/model.js';
import { constantCase, fieldsConstant, pipesConstant, providerVariable } from '../../model/naming.js';
import { type EmitContext, postureCall } from '../context.js';
import { writePipeConstants } from '../pipes.js';
import { type GeneratedFile, type ImportSet, parameterList, quote, TypeScriptFile, writeDoc } from '../writer.js';
import { namedSchema, schemasOf, shapeSchema } from '../openapi/catalog.js';
import { inputConstant, inputFieldLiteral } from '../app/entities.js';

/** The name the host gives clients when the application declares no `@McpHost()` class. */
const DEFAULT_HOST_NAME = 'resource-service';

/** Where the OpenAPI documents keep named schemas, and where a tool's output schema keeps them. */
const COMPONENTS = '#/components/schemas/';
const DEFINITIONS = '#/$defs/';

/** `schema` with every reference to a component schema pointing into `$defs`; the names referenced, added to `names`. */
function rewriteReferences(schema: unknown, names: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewriteReferences(item, names));
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENTS)) {
        names.add(value.slice(COMPONENTS.length));
        return [key, `${DEFINITIONS}${value.slice(COMPONENTS.length)}`];
      }
      return [key, rewriteReferences(value, names)];
    }),
  );
}

/**
 * The output of `tool` (docs/behaviour.md §4.6): the JSON Schema of its `structuredContent`, from
 * the schemas the OpenAPI documents describe responses with (generator/emit/openapi/catalog.ts),
 * self-contained (`$defs`), an object at its root as MCP asks — a value that is not an entity or a
 * page is wrapped as `{ result }` — and never null (a tool finding nothing answers `NOT_FOUND`).
 * Undefined for an operation without a value.
 */
function outputOf(app: ResolvedApp, tool: McpToolModel): { schema: JsonSchema; wrapped: boolean; entity?: string } | undefined {
  const shape = tool.returns;
  if (shape.kind === 'void') return undefined;
  const components = schemasOf(app);
  let root: JsonSchema;
  let wrapped = false;
  if (shape.kind === 'page') {
    root = {
      type: 'object',
      properties: {
        items: { type: 'array', items: namedSchema(shape.item) },
        next_cursor: { type: 'string', description: 'Present when more rows remain: the last id of this page, to pass as `after`.' },
        has_more: { type: 'boolean' },
      },
      required: ['items', 'has_more'],
      additionalProperties: false,
    };
  } else if (
    !shape.type.list &&
    (shape.type.named.kind === 'entity' || shape.type.named.kind === 'input') &&
    components[shape.type.named.name] !== undefined
  ) {
    root = components[shape.type.named.name] ?? {};
  } else {
    wrapped = true;
    root = {
      type: 'object',
      properties: { result: shapeSchema({ ...shape.type, nullable: false }) },
      required: ['result'],
      additionalProperties: false,
    };
  }
  const names = new Set<string>();
  const schema = rewriteReferences(root, names) as JsonSchema;
  const definitions: Record<string, unknown> = {};
  // Every schema reachable from the root, each once.
  for (const name of names) definitions[name] = rewriteReferences(components[name] ?? {}, names);
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
  const entity =
    shape.kind === 'page'
      ? shape.item.kind === 'entity'
        ? shape.item.name
        : undefined
      : shape.type.named.kind === 'entity'
        ? shape.type.named.name
        : undefined;
  return { schema: { ...schema, ...(names.size > 0 ? { $defs: sorted } : {}) }, wrapped, ...(entity !== undefined ? { entity } : {}) };
}

/** Where a tool comes from and its posture, for its docstring. */
function origin(tool: McpToolModel): string {
  const source =
    tool.source.kind === 'operation'
      ? `${tool.source.operationType === 'query' ? 'Query' : 'Mutation'}.${tool.source.fieldName}`
      : `${tool.source.method} ${tool.source.fullPath}`;
  const posture = tool.posture?.kind === 'authorized' ? `authorized: ${tool.posture.action} ${tool.posture.subject}` : 'public (ungated)';
  return `tool ${tool.name} → ${source} → ${tool.owner}.${tool.methodName} (${tool.file}:${tool.span.line}); ${posture}.`;
}

/**
 * The constant holding a tool's output: named after the entity it answers (`POST_OUTPUT`,
 * `POST_PAGE_OUTPUT`), else after the tool (`notes_top` → `NOTES_TOP_OUTPUT`).
 */
function outputConstant(tool: McpToolModel, entity: string | undefined, taken: ReadonlySet<string>): string {
  const byEntity = entity === undefined ? undefined : `${constantCase(entity)}${tool.returns.kind === 'page' ? '_PAGE' : ''}_OUTPUT`;
  return byEntity !== undefined && !taken.has(byEntity) ? byEntity : `${constantCase(tool.name.replace(/[^A-Za-z0-9]+/g, '-'))}_OUTPUT`;
}

/**
 * Writes each distinct tool output once, as a constant laid out line by line (its JSON Schema can
 * run to dozens of properties), and returns the constant each tool names; tools answering the same
 * shape share one.
 */
function writeOutputConstants(file: TypeScriptFile, app: ResolvedApp, tools: readonly McpToolModel[]): Map<McpToolModel, string> {
  const constants = new Map<string, { name: string; tools: string[] }>();
  const byTool = new Map<McpToolModel, string>();
  for (const tool of tools) {
    const output = outputOf(app, tool);
    if (!output) continue;
    const text = JSON.stringify(output, null, 2);
    let constant = constants.get(text);
    if (constant === undefined) {
      constant = {
        name: outputConstant(tool, output.wrapped ? undefined : output.entity, new Set([...constants.values()].map((known) => known.name))),
        tools: [],
      };
      constants.set(text, constant);
    }
    constant.tools.push(tool.name);
    byTool.set(tool, constant.name);
  }
  const w = file.body;
  for (const [text, { name, tools: users }] of constants) {
    const type = file.imports.type('runtime/transports/mcp/index.ts', 'McpToolOutput');
    writeDoc(w, [
      `What tool${users.length > 1 ? 's' : ''} ${users.join(', ')} answer${users.length > 1 ? '' : 's'} as \`structuredContent\`, and its JSON Schema (the tool's \`outputSchema\`, from the OpenAPI response schemas).`,
    ]);
    const lines = text.split('\n');
    w.writeLine(`const ${name}: ${type} = ${lines[0] ?? ''}`);
    for (const line of lines.slice(1, -1)) w.writeLine(line);
    w.writeLine(`${lines.at(-1) ?? ''};`);
    w.blankLine();
  }
  return byTool;
}

class ToolWriter {
  constructor(
    private readonly context: EmitContext,
    private readonly file: TypeScriptFile,
    private readonly outputs: ReadonlyMap<McpToolModel, string>,
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
    if (shape.kind === 'page')
      return shape.result
        ? `((page) => ({ ...page, items: ${mask}(request, ${quote(entity)}, ${fields}, page.items) }))(${value})`
        : `{ ...value, items: ${mask}(request, ${quote(entity)}, ${fields}, value.items) }`;
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
      w.writeLine(
        `posture: ${posture?.kind === 'authorized' ? `{ kind: 'authorized', action: ${quote(posture.action)}, subject: ${quote(posture.subject)} }` : "{ kind: 'public' }"},`,
      );
      const output = this.outputs.get(tool);
      if (output !== undefined) w.writeLine(`output: ${output},`);
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
      const call = postureCall(
        this.imports,
        tool.posture,
        `${providerVariable(tool.owner)}.${tool.methodName}(${args.join(', ')})`,
        tool.returns.promised,
      );
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
    'mcp.ts',
    context,
    'The MCP host (docs/behaviour.md §4.6): each tool with its description, posture and parameters, and the call of\nthe declared method, Result unwrapping and masking. runtime/transports/mcp/ gates, checks and pipes the arguments.',
  );
  const { body: w, imports } = file;
  writePipeConstants(
    file,
    mcp.tools.map((tool) => ({
      owner: tool.owner,
      methodName: tool.methodName,
      label: `tool ${tool.name}`,
      noun: 'parameter',
      params: tool.params,
    })),
  );
  const outputs = writeOutputConstants(file, context.app, mcp.tools);
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const definition = imports.type('runtime/transports/mcp/index.ts', 'McpHostDefinition');
  writeDoc(w, ["The MCP host and its tools, bound to the container's instances."]);
  w.write(`export function createMcpHost(container: ${container}): ${definition}`).block(() => {
    const owners = [...new Set(mcp.tools.map((tool) => providerVariable(tool.owner)))].sort();
    w.writeLine(`const { ${owners.join(', ')} } = container;`);
    w.write('return ').inlineBlock(() => {
      w.writeLine(`name: ${quote(mcp.host?.name ?? DEFAULT_HOST_NAME)},`);
      w.writeLine(`path: ${quote(mcp.path)},`);
      if (mcp.host?.description !== undefined) w.writeLine(`instructions: ${quote(mcp.host.description)},`);
      w.write('tools: [').indent(() => {
        const writer = new ToolWriter(context, file, outputs);
        for (const tool of mcp.tools) writer.write(tool);
      });
      w.writeLine('],');
    });
    w.write(';');
  });
  return file.render();
}
