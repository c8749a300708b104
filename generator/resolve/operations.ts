/**
 * GraphQL resolvers and their operations and computed fields (docs/behaviour.md §4.1, §5), WebSocket gateways
 * (docs/behaviour.md §4.4), and the transports that take no version (docs/behaviour.md §9.5), resolved: field names and
 * topics defaulted, the posture in force, the guard chain, what each one returns.
 */
import type { DeclaredClass, DeclaredDecorator, DeclaredMethod, DeclaredParameter } from '../model/declarations.js';
import type {
  FieldResolverModel,
  GatewayHandlerModel,
  GatewayModel,
  GuardBinding,
  OperationModel,
  OperationType,
  ParamModel,
  ResolverModel,
  UnversionedTransportModel,
} from '../model/model.js';
import { fieldNameOf } from '../model/naming.js';
import type { ReturnShape, SourceSpan } from '../model/types.js';
import { guardChain, readGuards, readPipes, readPostures } from './bindings.js';
import { deprecationOf } from './deprecation.js';
import { returnedEntity } from './types.js';
import { argumentAt, DecoratorSet, expressionOf, optionKeySpan, optionOf, stringOf, thunkTarget } from './values.js';

/** GraphQL operation decorators, in the order a method carrying several yields its operations. */
const OPERATION_DECORATORS: readonly (readonly [string, OperationType, string])[] = [
  ['Query', 'query', 'Query'],
  ['Mutation', 'mutation', 'Mutation'],
  ['Subscription', 'subscription', 'Subscription'],
];

/** A named class (anonymous ones are reported by `class-not-exported` and resolve to nothing). */
export type NamedClass = DeclaredClass & { readonly name: string };

/** The span of a `version:` key in a decorator's options object (refused on these transports). */
function versionOptionSpan(decorator: DeclaredDecorator | undefined): SourceSpan | undefined {
  for (const argument of decorator?.arguments ?? []) {
    const span = optionKeySpan(argument, 'version');
    if (span) return span;
  }
  return undefined;
}

/** GraphQL arguments: their types as declared, pipes from `@UsePipes` and `@Args`. */
function argumentsOf(parameters: readonly DeclaredParameter[], methodDecorators: DecoratorSet): ParamModel[] {
  const methodPipes = readPipes(methodDecorators.every('UsePipes'));
  return parameters.map((parameter) => ({
    name: parameter.name,
    type: parameter.type,
    optional: parameter.optional,
    source: 'arg',
    binding: 'argument',
    pipes: [...methodPipes, ...readPipes([new DecoratorSet(parameter.decorators).first('Args')])],
    span: parameter.span,
  }));
}

/** What a subscription returning `shape` sends: the value never null (null leaves the item out, docs/behaviour.md §4.1). */
function sent(shape: ReturnShape): ReturnShape {
  return shape.kind === 'value' && shape.type.nullable && !shape.result ? { ...shape, type: { ...shape.type, nullable: false } } : shape;
}

function readOperation(
  cls: NamedClass,
  method: DeclaredMethod,
  decorators: DecoratorSet,
  operationType: OperationType,
  rootType: string,
  decoratorName: string,
  outerGuards: readonly GuardBinding[],
): OperationModel {
  const decorator = decorators.first(decoratorName);
  const options = argumentAt(decorator, 0);
  const versionDecorator = decorators.first('Version');
  // A subscription method receives the published item first; it is not a GraphQL argument.
  const parameters = operationType === 'subscription' ? method.parameters.slice(1) : method.parameters;
  const guards = readGuards(decorators.every('UseGuards'));
  const { posture, postures } = readPostures(decorators);
  return {
    kind: 'operation',
    operationType,
    rootType,
    fieldName: stringOf(optionOf(options, 'name')) ?? fieldNameOf(method.name),
    methodName: method.name,
    owner: cls.name,
    file: cls.file,
    params: argumentsOf(parameters, decorators),
    returns: operationType === 'subscription' ? sent(method.returns) : method.returns,
    returnedEntity: returnedEntity(method.returns),
    posture,
    postures,
    guards,
    guardChain: guardChain(outerGuards, guards),
    complexity: expressionOf(argumentAt(decorators.first('Complexity'), 0)),
    complexitySpan: argumentAt(decorators.first('Complexity'), 0)?.span,
    deprecation: deprecationOf(optionOf(options, 'deprecationReason'), method.deprecated),
    // Its own pipes only: `@UsePipes` on the method binds the arguments.
    itemParam: operationType === 'subscription' ? argumentsOf(method.parameters.slice(0, 1), new DecoratorSet([]))[0] : undefined,
    topic: operationType === 'subscription' ? (stringOf(optionOf(options, 'topic')) ?? fieldNameOf(method.name)) : undefined,
    eventEntity: operationType === 'subscription' && method.returns.kind === 'value' ? returnedEntity(method.returns) : undefined,
    versionSpan: versionOptionSpan(decorator) ?? versionDecorator?.span,
    doc: method.doc,
    description: method.description,
    span: method.span,
  };
}

/** The per-parent answer of a batched field whose method does not return a list: none (rule `type-unsupported` says what to write). */
function notOnePerParent(declared: ReturnShape, text: string | undefined): ReturnShape {
  return {
    kind: 'value',
    type: {
      named: {
        kind: 'unsupported',
        text,
        reason:
          'a batched field (its parent parameter is a list) answers one value per parent, in order: return a list, e.g. Promise<(string | null)[]>',
      },
      list: false,
      nullable: false,
    },
    result: false,
    promised: declared.promised,
  };
}

function readFieldResolver(
  cls: NamedClass,
  entity: string | undefined,
  method: DeclaredMethod,
  decorators: DecoratorSet,
): FieldResolverModel {
  const options = argumentAt(decorators.first('ResolveField'), 0);
  // The first parameter is the parent object, or every parent of a level (a list): then the method answers one value each.
  const batched = method.parameters[0]?.type.list === true;
  const returns = batched ? (method.returnsEach ?? notOnePerParent(method.returns, method.returnsText)) : method.returns;
  return {
    kind: 'fieldResolver',
    fieldName: stringOf(optionOf(options, 'name')) ?? fieldNameOf(method.name),
    methodName: method.name,
    owner: cls.name,
    file: cls.file,
    entity,
    batched,
    params: argumentsOf(method.parameters.slice(1), decorators),
    returns,
    returnedEntity: returnedEntity(returns),
    complexity: expressionOf(argumentAt(decorators.first('Complexity'), 0)),
    complexitySpan: argumentAt(decorators.first('Complexity'), 0)?.span,
    deprecation: deprecationOf(optionOf(options, 'deprecationReason'), method.deprecated),
    doc: method.doc,
    description: method.description,
    span: method.span,
  };
}

/**
 * A `@Resolver()` class with its operations (a method with several operation decorators yields
 * one each) and computed fields. `rootGuards` are the root module's (global) guards, first in
 * every operation's chain.
 */
export function resolveResolver(cls: NamedClass, rootGuards: readonly GuardBinding[]): ResolverModel {
  const classDecorators = new DecoratorSet(cls.decorators);
  const decorator = classDecorators.first('Resolver');
  const written = argumentAt(decorator, 0);
  const target = thunkTarget(written);
  const entity = target?.name;
  const guards = readGuards(classDecorators.every('UseGuards'));
  const operations: OperationModel[] = [];
  const fieldResolvers: FieldResolverModel[] = [];
  for (const method of cls.methods) {
    const decorators = new DecoratorSet(method.decorators);
    for (const [decoratorName, operationType, rootType] of OPERATION_DECORATORS) {
      if (decorators.has(decoratorName))
        operations.push(readOperation(cls, method, decorators, operationType, rootType, decoratorName, guardChain(rootGuards, guards)));
    }
    if (decorators.has('ResolveField')) fieldResolvers.push(readFieldResolver(cls, entity, method, decorators));
  }
  return {
    kind: 'resolver',
    name: cls.name,
    file: cls.file,
    entity,
    entitySpan: target?.span,
    entityWritten: written !== undefined,
    operations,
    fieldResolvers,
    guards,
    versionSpan: versionOptionSpan(decorator),
    resource: undefined,
    span: cls.span,
  };
}

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

/** A `@Gateway()` class and its message handlers (docs/behaviour.md §4.4, §9.5). */
export function resolveGateway(cls: NamedClass): GatewayModel {
  const decorator = new DecoratorSet(cls.decorators).first('Gateway');
  const options = argumentAt(decorator, 0);
  const version = optionOf(options, 'version');
  const handlers = cls.methods.flatMap((method): GatewayHandlerModel[] => {
    const decorators = new DecoratorSet(method.decorators);
    const event = stringOf(argumentAt(decorators.first('SubscribeMessage'), 0));
    if (event === undefined) return [];
    const { posture, postures } = readPostures(decorators);
    const data = method.parameters[0]?.type.named;
    const dataTyped = data !== undefined && (data.kind !== 'unsupported' || (data.text !== undefined && data.text !== 'unknown'));
    return [{ event, methodName: method.name, takesData: data !== undefined, dataTyped, posture, postures, span: method.span }];
  });
  return {
    kind: 'gateway',
    name: cls.name,
    file: cls.file,
    path: trimSlashes(stringOf(optionOf(options, 'path')) ?? ''),
    version: stringOf(version),
    versionSpan: version?.span,
    handlers,
    span: decorator?.span ?? cls.span,
  };
}

/** The transports of a class that take no version (docs/behaviour.md §9.5), to refuse one written on them. */
export function unversionedTransports(cls: DeclaredClass): UnversionedTransportModel[] {
  const transports: UnversionedTransportModel[] = [];
  const classDecorators = new DecoratorSet(cls.decorators);
  for (const [decoratorName, transport] of [
    ['McpHost', 'mcpHost'],
    ['Processor', 'processor'],
  ] as const) {
    const decorator = classDecorators.first(decoratorName);
    if (decorator && cls.name !== undefined)
      transports.push({
        kind: 'unversionedTransport',
        transport,
        name: cls.name,
        versionSpan: versionOptionSpan(decorator),
        span: decorator.span,
      });
  }
  // Scheduled tasks and in-process listeners live on any class.
  for (const method of cls.methods) {
    const decorators = new DecoratorSet(method.decorators);
    for (const [decoratorName, transport] of [
      ['Cron', 'cron'],
      ['OnEvent', 'listener'],
    ] as const) {
      const decorator = decorators.first(decoratorName);
      if (!decorator) continue;
      transports.push({
        kind: 'unversionedTransport',
        transport,
        name: `${cls.name ?? '(anonymous class)'}.${method.name}`,
        versionSpan: versionOptionSpan(decorator) ?? decorators.first('Version')?.span,
        span: decorator.span,
      });
    }
  }
  return transports;
}
