/**
 * HTTP controllers and their routes, resolved (docs/behaviour.md §4.2, §4.3, §9.1): each route's full path and
 * versions, its success status and reply kind, where each parameter comes from and how the handler
 * obtains it, and — for a route returning a keyset page — its page parameters; what callers read in
 * the OpenAPI documents: each controller's tags and each route's summary and description. The route
 * emitter and the OpenAPI emitter both read these; neither decides them.
 */
import { DECORATOR_SIGNATURES, type DecoratorName } from '../../runtime/declarations/decorator-signatures.js';
import type { HttpMethod, ReplyKind } from '../../runtime/http/routes.js';
import type { DeclaredDecorator, DeclaredMethod } from '../model/declarations.js';
import { firstSentence } from '../model/docs.js';
import type {
  ControllerModel,
  PageParameters,
  ParamBinding,
  ParamModel,
  ParamSource,
  RouteModel,
  RouteText,
  VersionToken,
  WrittenPathModel,
} from '../model/model.js';
import type { ReturnShape, TypeShape } from '../model/types.js';
import { readPipes, readPostures } from './bindings.js';
import type { NamedClass } from './operations.js';
import { pathParametersOf, readWrittenPath } from './route-paths.js';
import { returnedEntity } from './types.js';
import { argumentAt, DecoratorSet, numberOf, optionOf, stringOf } from './values.js';

/** The route decorators and the method each declares, in the order a method carrying several yields its routes. */
const ROUTE_DECORATORS: readonly (readonly [DecoratorName, HttpMethod])[] = (
  Object.entries(DECORATOR_SIGNATURES) as [DecoratorName, (typeof DECORATOR_SIGNATURES)[DecoratorName]][]
).flatMap(([name, signature]) => (signature.httpMethod ? [[name, signature.httpMethod] as const] : []));

/** The query parameters of a keyset page (docs/behaviour.md §4.2): the page size and the cursor. */
const PAGE_SIZE = 'first';
const PAGE_CURSOR = 'after';

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

/** The success status (docs/behaviour.md §4.3): `@HttpCode`, else 201 for POST, 204 for a route returning nothing, else 200. */
function statusOf(method: HttpMethod, returns: ReturnShape, httpCode: number | undefined): number {
  if (httpCode !== undefined) return httpCode;
  if (method === 'POST') return 201;
  return returns.kind === 'void' ? 204 : 200;
}

/** How the result is sent: a keyset page, nothing (204), a whole list, or one value. */
function replyOf(returns: ReturnShape): ReplyKind {
  if (returns.kind === 'page') return 'page';
  if (returns.kind === 'void') return 'empty';
  return returns.type.list ? 'list' : 'value';
}

const isTextScalar = (type: TypeShape): boolean =>
  type.named.kind === 'scalar' && (type.named.name === 'String' || type.named.name === 'ID');

function bindingOf(source: ParamSource, name: string, type: TypeShape, isPage: boolean): ParamBinding {
  if (isPage && source === 'query' && name === PAGE_SIZE) return 'pageSize';
  if (isPage && source === 'query' && name === PAGE_CURSOR) return 'cursor';
  if (source === 'path') return isTextScalar(type) ? 'pathText' : 'path';
  if (source === 'body') return 'body';
  return 'query';
}

function versionTokens(value: ReturnType<typeof argumentAt>): { tokens: VersionToken[]; known: boolean } {
  if (value === undefined) return { tokens: [], known: true };
  if (value.kind === 'string') return { tokens: [{ version: value.value, span: value.span }], known: true };
  if (value.kind !== 'array') return { tokens: [], known: false };
  const tokens = value.items.flatMap((item): VersionToken[] => (item.kind === 'string' ? [{ version: item.value, span: item.span }] : []));
  return { tokens, known: tokens.length === value.items.length };
}

/** The tag of a controller declaring none: its path, or `root` for the empty path. */
const ROOT_TAG = 'root';

/** A controller's tags (ControllerModel.tags): `@ApiTags` as declared, else its path's. */
function tagsOf(apiTags: DeclaredDecorator | undefined, path: string): string[] {
  const declared = apiTags ? [...new Set(apiTags.arguments.flatMap((argument) => stringOf(argument) ?? []))] : [];
  if (declared.length > 0) return declared;
  return [path === '' ? ROOT_TAG : path];
}

/** A route's summary and description (RouteModel.operationText). */
function operationTextOf(apiOperation: DeclaredDecorator | undefined, description: string | undefined): RouteText {
  const options = argumentAt(apiOperation, 0);
  const summary = stringOf(optionOf(options, 'summary'));
  const declaredDescription = stringOf(optionOf(options, 'description'));
  if (summary !== undefined) return { summary, description: declaredDescription ?? description };
  const split = description === undefined ? undefined : firstSentence(description);
  return { summary: split?.sentence, description: declaredDescription ?? split?.rest };
}

/** The path a decorator argument writes, read by path-to-regexp; `''` (and no span) when it writes none or one not a string. */
function writtenPathOf(value: ReturnType<typeof argumentAt>, under?: WrittenPathModel): WrittenPathModel {
  const text = stringOf(value);
  return readWrittenPath(text ?? '', text === undefined ? undefined : value?.span, under ? { under: under.parameters } : {});
}

function readRoute(
  cls: NamedClass,
  controllerPath: WrittenPathModel,
  controllerVersions: readonly string[],
  method: DeclaredMethod,
  decorators: DecoratorSet,
  decoratorName: DecoratorName,
  httpMethod: HttpMethod,
): RouteModel {
  const decorator = decorators.first(decoratorName);
  const writtenPath = writtenPathOf(argumentAt(decorator, 0), controllerPath);
  const path = trimSlashes(writtenPath.text);
  const paginationValue = optionOf(argumentAt(decorator, 1), 'pagination');
  const pagination = stringOf(paginationValue);
  const fullPath = `/${[trimSlashes(controllerPath.text), path].filter(Boolean).join('/')}`;
  // The names path-to-regexp hands the route, not a reading of our own (docs/behaviour.md §4.2).
  const pathParameters = pathParametersOf([controllerPath, writtenPath]);
  const versionDecorator = decorators.first('Version');
  const routeVersions = versionDecorator ? versionDecorator.arguments.flatMap((argument) => versionTokens(argument).tokens) : undefined;
  const isPage = method.returns.kind === 'page';
  const methodPipes = readPipes(decorators.every('UsePipes'));
  const params = method.parameters.map((parameter): ParamModel => {
    const parameterDecorators = new DecoratorSet(parameter.decorators);
    const source: ParamSource = parameterDecorators.has('Body')
      ? 'body'
      : parameterDecorators.has('Param') || pathParameters?.includes(parameter.name) === true
        ? 'path'
        : 'query';
    return {
      name: parameter.name,
      type: parameter.type,
      optional: parameter.optional,
      source,
      binding: bindingOf(source, parameter.name, parameter.type, isPage),
      pipes: [...methodPipes, ...readPipes([parameterDecorators.first('Body') ?? parameterDecorators.first('Param')])],
      span: parameter.span,
    };
  });
  const page: PageParameters | undefined = isPage
    ? { first: params.find((param) => param.name === PAGE_SIZE), after: params.find((param) => param.name === PAGE_CURSOR) }
    : undefined;
  const { posture, postures } = readPostures(decorators);
  return {
    kind: 'route',
    method: httpMethod,
    path,
    writtenPath,
    fullPath,
    pathParameters,
    methodName: method.name,
    owner: cls.name,
    file: cls.file,
    params,
    returns: method.returns,
    returnedEntity: returnedEntity(method.returns),
    reply: replyOf(method.returns),
    status: statusOf(httpMethod, method.returns, numberOf(argumentAt(decorators.first('HttpCode'), 0))),
    takesBody: params.some((param) => param.source === 'body'),
    posture,
    postures,
    versions: routeVersions?.map((token) => token.version) ?? controllerVersions,
    routeVersions,
    versionSpan: versionDecorator?.span,
    pagination: pagination === 'cursor' || pagination === 'none' ? pagination : undefined,
    paginationKnown: paginationValue === undefined || pagination === 'cursor' || pagination === 'none',
    page,
    operationText: operationTextOf(decorators.first('ApiOperation'), method.description),
    doc: method.doc,
    description: method.description,
    span: method.span,
  };
}

/** A `@Controller()` class and its routes (a method with several route decorators yields one each). */
export function resolveController(cls: NamedClass): ControllerModel {
  const classDecorators = new DecoratorSet(cls.decorators);
  const decorator = classDecorators.first('Controller');
  const first = argumentAt(decorator, 0);
  const version = optionOf(first, 'version');
  const { tokens, known } = versionTokens(version);
  const writtenPath = writtenPathOf(first?.kind === 'string' ? first : optionOf(first, 'path'));
  const path = trimSlashes(writtenPath.text);
  const versions = tokens.map((token) => token.version);
  const routes: RouteModel[] = [];
  for (const method of cls.methods) {
    const decorators = new DecoratorSet(method.decorators);
    for (const [decoratorName, httpMethod] of ROUTE_DECORATORS) {
      if (decorators.has(decoratorName)) routes.push(readRoute(cls, writtenPath, versions, method, decorators, decoratorName, httpMethod));
    }
  }
  return {
    kind: 'controller',
    name: cls.name,
    file: cls.file,
    path,
    writtenPath,
    versions,
    versionTokens: tokens,
    versionsKnown: known,
    versionSpan: version?.span,
    routes,
    tags: tagsOf(classDecorators.first('ApiTags'), path),
    resource: undefined,
    doc: cls.doc,
    description: cls.description,
    span: cls.span,
  };
}
