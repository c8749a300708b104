/**
 * The request entry points (docs/behaviour.md §5.9), listed once: what a GraphQL request, an HTTP
 * request or a socket message reaches first. The posture rules read the declared ones; the rule
 * about lifting the row scope reads the mounted ones.
 */
import type { ControllerModel, GatewayModel, RequestEntryPointModel, ResolverModel } from '../model/model.js';

/**
 * Takes resolvers, controllers and gateways; returns their entry points: each resolver's operations
 * then its computed fields, then each controller's routes, then each gateway's message handlers,
 * in the order given.
 */
export function requestEntryPoints(
  resolvers: readonly ResolverModel[],
  controllers: readonly ControllerModel[],
  gateways: readonly GatewayModel[],
): RequestEntryPointModel[] {
  return [
    ...resolvers.flatMap((resolver) => [
      ...resolver.operations.map((operation): RequestEntryPointModel => ({
        kind: 'operation',
        name: `${operation.rootType}.${operation.fieldName}`,
        owner: resolver.name,
        methodName: operation.methodName,
        postures: operation.postures,
        span: operation.span,
      })),
      ...resolver.fieldResolvers.map((field): RequestEntryPointModel => ({
        kind: 'computedField',
        name: `${field.entity ?? resolver.name}.${field.fieldName}`,
        owner: resolver.name,
        methodName: field.methodName,
        postures: [],
        span: field.span,
      })),
    ]),
    ...controllers.flatMap((controller) =>
      controller.routes.map((route): RequestEntryPointModel => ({
        kind: 'route',
        name: `${route.method} ${route.fullPath}`,
        owner: controller.name,
        methodName: route.methodName,
        postures: route.postures,
        span: route.span,
      })),
    ),
    ...gateways.flatMap((gateway) =>
      gateway.handlers.map((handler): RequestEntryPointModel => ({
        kind: 'message',
        name: `message ${handler.event} of ${gateway.name}`,
        owner: gateway.name,
        methodName: handler.methodName,
        postures: handler.postures,
        span: handler.span,
      })),
    ),
  ];
}
