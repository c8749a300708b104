/**
 * The MCP host and its tools, resolved (docs/behaviour.md §4.6): which operations and routes are
 * tools (`@McpTool()`), each tool's name, description, readOnly hint, input parameters — how each
 * is read from the call's `arguments` and the zod schema that describes it — posture and output,
 * and the host's path. The MCP emitter and the MCP rules read these; neither decides them.
 */
import type { DeclaredMethod } from '../model/declarations.js';
import type {
  ControllerModel,
  GatewayModel,
  McpHostModel,
  McpParamBinding,
  McpToolMisplacedModel,
  McpToolModel,
  McpToolParamModel,
  OperationModel,
  ParamModel,
  ResolverModel,
  RouteModel,
} from '../model/model.js';
import type { ReturnShape, SourceRef } from '../model/types.js';
import type { NamedClass } from './operations.js';
import { argumentAt, DecoratorSet, optionOf, stringOf } from './values.js';

/** The path of a host that declares none, and of the host of an application without an `@McpHost()` class. */
export const DEFAULT_MCP_PATH = '/mcp';

/** The runtime's validation pipe: its first argument is the zod schema a tool's input schema is written from. */
const ZOD_PIPE: SourceRef = { file: 'runtime/declarations/pipes.ts', exportName: 'ZodValidationPipe' };

/** An `@McpHost()` class (docs/behaviour.md §4.6): its path (`/` + the written path without surrounding slashes). */
export function resolveMcpHost(cls: NamedClass): McpHostModel {
  const decorator = new DecoratorSet(cls.decorators).first('McpHost');
  const written = stringOf(optionOf(argumentAt(decorator, 0), 'path'))?.replace(/^\/+|\/+$/g, '');
  return {
    kind: 'mcpHost',
    name: cls.name,
    file: cls.file,
    path: written ? `/${written}` : DEFAULT_MCP_PATH,
    doc: cls.doc,
    description: cls.description,
    span: decorator?.span ?? cls.span,
  };
}

/** The zod schema of a parameter's first `ZodValidationPipe(schema)`, when its schema is an exported value. */
function zodSchemaOf(param: ParamModel): SourceRef | undefined {
  const pipe = param.pipes.find(
    (candidate) => candidate.class.file === ZOD_PIPE.file && candidate.class.exportName === ZOD_PIPE.exportName,
  );
  const schema = pipe?.args[0];
  return schema?.kind === 'ref' ? schema.ref : undefined;
}

/**
 * How a tool reads a parameter: a route's page parameters as the route reads them; an operation's
 * `first` (Int) and `after` (text) on a keyset page as a route would; anything else by its type.
 */
function bindingOf(param: ParamModel, returns: ReturnShape): McpParamBinding {
  if (param.binding === 'pageSize' || param.binding === 'cursor') return param.binding;
  if (param.binding !== 'argument' || returns.kind !== 'page' || param.type.list || param.type.named.kind !== 'scalar') return 'value';
  if (param.name === 'first' && param.type.named.name === 'Int') return 'pageSize';
  if (param.name === 'after' && (param.type.named.name === 'String' || param.type.named.name === 'ID')) return 'cursor';
  return 'value';
}

function toolParams(params: readonly ParamModel[], returns: ReturnShape): McpToolParamModel[] {
  return params.map((param) => {
    const zodSchema = zodSchemaOf(param);
    return {
      name: param.name,
      type: param.type,
      optional: param.optional || (param.type.nullable && zodSchema === undefined),
      absent: !param.optional && param.type.nullable ? 'null' : 'undefined',
      binding: bindingOf(param, returns),
      pipes: param.pipes,
      zodSchema,
    };
  });
}

/**
 * The default name of a route's tool: the literal segments of its controller's path and its method,
 * `_`-joined (`posts_get` for `PostsController.get` at `GET /posts/:id`; `notes_top` for
 * `NotesController.top` at `GET /notes/top`).
 */
function routeToolName(route: RouteModel): string {
  const controllerPath =
    route.path !== '' && route.fullPath.endsWith(route.path) ? route.fullPath.slice(0, -route.path.length) : route.fullPath;
  const segments = controllerPath.split('/').filter((segment) => segment !== '' && !segment.startsWith(':'));
  return [...segments.map((segment) => segment.replace(/[^A-Za-z0-9_.-]/g, '_')), route.methodName].join('_');
}

/** What callers read about a route (its OpenAPI summary and description), as one text. */
function routeDescription(route: RouteModel): string | undefined {
  const parts = [route.operationText.summary, route.operationText.description].filter(
    (part): part is string => part !== undefined && part.trim() !== '',
  );
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** Everything the tools are read from, resolved elsewhere. */
interface McpInput {
  readonly classes: readonly NamedClass[];
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
}

/**
 * Every method marked `@McpTool()`: a tool when it is a query, a mutation or a route; otherwise
 * recorded as misplaced (a subscription, a computed field, a gateway handler, or a method nothing
 * calls), for rule mcp-tool-not-operation. Tools are in source order.
 */
export function resolveMcpTools(input: McpInput): { tools: McpToolModel[]; misplaced: McpToolMisplacedModel[] } {
  const resolverByName = new Map(input.resolvers.map((resolver) => [resolver.name, resolver]));
  const controllerByName = new Map(input.controllers.map((controller) => [controller.name, controller]));
  const gatewayByName = new Map(input.gateways.map((gateway) => [gateway.name, gateway]));
  const tools: McpToolModel[] = [];
  const misplaced: McpToolMisplacedModel[] = [];
  for (const cls of input.classes) {
    for (const method of cls.methods) {
      const decorator = new DecoratorSet(method.decorators).first('McpTool');
      if (!decorator) continue;
      const options = argumentAt(decorator, 0);
      const nameValue = optionOf(options, 'name');
      const written = {
        name: stringOf(nameValue),
        nameSpan: nameValue?.span ?? decorator.span,
        title: stringOf(optionOf(options, 'title')),
        span: decorator.span,
      };
      const operation = resolverByName
        .get(cls.name)
        ?.operations.find((candidate) => candidate.methodName === method.name && candidate.operationType !== 'subscription');
      const route = controllerByName.get(cls.name)?.routes.find((candidate) => candidate.methodName === method.name);
      if (operation) tools.push(operationTool(operation, written));
      else if (route) tools.push(routeTool(route, written));
      else
        misplaced.push({
          declaration: `${cls.name}.${method.name}`,
          reason: misplacedReason(cls, method, resolverByName, gatewayByName),
          span: decorator.span,
        });
    }
  }
  return { tools, misplaced };
}

/** What `@McpTool` says, read before the operation it marks is known. */
interface WrittenTool {
  readonly name: string | undefined;
  readonly nameSpan: McpToolModel['nameSpan'];
  readonly title: string | undefined;
  readonly span: McpToolModel['span'];
}

function operationTool(operation: OperationModel, written: WrittenTool): McpToolModel {
  return {
    kind: 'mcpTool',
    name: written.name ?? operation.fieldName,
    nameSpan: written.nameSpan,
    nameWritten: written.name !== undefined,
    title: written.title,
    source: { kind: 'operation', operationType: operation.operationType, fieldName: operation.fieldName },
    readOnly: operation.operationType === 'query',
    owner: operation.owner,
    methodName: operation.methodName,
    file: operation.file,
    params: toolParams(operation.params, operation.returns),
    returns: operation.returns,
    returnedEntity: operation.returnedEntity,
    posture: operation.posture,
    doc: operation.doc,
    description: operation.description,
    span: written.span,
  };
}

function routeTool(route: RouteModel, written: WrittenTool): McpToolModel {
  return {
    kind: 'mcpTool',
    name: written.name ?? routeToolName(route),
    nameSpan: written.nameSpan,
    nameWritten: written.name !== undefined,
    title: written.title,
    source: { kind: 'route', method: route.method, fullPath: route.fullPath },
    readOnly: route.method === 'GET',
    owner: route.owner,
    methodName: route.methodName,
    file: route.file,
    params: toolParams(route.params, route.returns),
    returns: route.returns,
    returnedEntity: route.returnedEntity,
    posture: route.posture,
    doc: route.doc,
    description: routeDescription(route),
    span: written.span,
  };
}

function misplacedReason(
  cls: NamedClass,
  method: DeclaredMethod,
  resolvers: ReadonlyMap<string, ResolverModel>,
  gateways: ReadonlyMap<string, GatewayModel>,
): McpToolMisplacedModel['reason'] {
  const resolver = resolvers.get(cls.name);
  if (resolver?.operations.some((operation) => operation.methodName === method.name)) return 'subscription';
  if (resolver?.fieldResolvers.some((field) => field.methodName === method.name)) return 'fieldResolver';
  if (gateways.get(cls.name)?.handlers.some((handler) => handler.methodName === method.name)) return 'gatewayHandler';
  return 'notOperation';
}
