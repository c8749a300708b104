/**
 * Unscoped in request (spec §5.9; docs/hostile-input.md §4)
 *
 * Jobs may run unscoped; request transports may not. A `runUnscoped` call reachable from a GraphQL
 * operation or computed field, an HTTP route or a gateway message — through the methods it calls
 * on `this` and on its injected providers — would throw on every request at run time, so it is
 * refused here, at the call, naming one request path that reaches it.
 */
import { resolveDependency } from '../../model/application.js';
import type { MethodModel, ProviderModel, SourceSpan } from '../../model/model.js';
import type { Rule } from '../rule.js';
import { displayPath } from './operation-posture-missing.js';

/** A provider method, and the path of calls that reached it from a request entry point. */
interface Reached {
  readonly provider: ProviderModel;
  readonly method: MethodModel;
  readonly path: readonly string[];
}

export const unscopedInRequest: Rule = ({ model, application }, report) => {
  const providers = new Map(application.providers.map((provider) => [provider.name, provider]));
  const entries: { readonly entry: string; readonly owner: string; readonly method: string }[] = [];
  for (const resolver of application.resolvers) {
    for (const operation of resolver.operations) entries.push({ entry: `${rootType(operation.operationType)}.${operation.fieldName}`, owner: resolver.name, method: operation.methodName });
    for (const field of resolver.fieldResolvers) entries.push({ entry: `${field.entity ?? resolver.entity ?? resolver.name}.${field.fieldName}`, owner: resolver.name, method: field.methodName });
  }
  for (const controller of application.controllers) {
    for (const route of controller.routes) entries.push({ entry: `${route.method} ${displayPath(controller.path, route.path)}`, owner: controller.name, method: route.methodName });
  }
  for (const gateway of application.gateways) {
    for (const handler of gateway.handlers) entries.push({ entry: `message ${handler.event} of ${gateway.name}`, owner: gateway.name, method: handler.methodName });
  }

  const reported = new Set<string>();
  for (const { entry, owner, method } of entries) {
    const start = providers.get(owner);
    const first = start?.methods.find((candidate) => candidate.name === method);
    if (!start || !first) continue;
    const seen = new Set<string>();
    const queue: Reached[] = [{ provider: start, method: first, path: [`${owner}.${method}`] }];
    while (queue.length > 0) {
      const reached = queue.shift()!;
      const key = `${reached.provider.name}.${reached.method.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const span of reached.method.unscopedCalls) {
        const at = spanKey(span);
        if (reported.has(at)) continue;
        reported.add(at);
        report({
          message: `runUnscoped in ${key} is reachable from ${entry} (${reached.path.join(' → ')}); request transports may not lift the row scope (spec §5.9): read through the caller's scope, or move this work into a job, seed, scheduled task or listener`,
          span,
        });
      }
      for (const call of reached.method.calls) {
        let target: ProviderModel | undefined = reached.provider;
        if (call.dependency !== undefined) {
          const dependency = reached.provider.dependencies.find((candidate) => candidate.parameterName === call.dependency);
          const resolved = dependency ? resolveDependency(model, application, dependency) : undefined;
          target = resolved?.kind === 'provider' ? providers.get(resolved.provider.name) : undefined;
        }
        const called = target?.methods.find((candidate) => candidate.name === call.method);
        if (target && called) queue.push({ provider: target, method: called, path: [...reached.path, `${target.name}.${called.name}`] });
      }
    }
  }
};

function rootType(operationType: 'query' | 'mutation' | 'subscription'): string {
  return operationType === 'query' ? 'Query' : operationType === 'mutation' ? 'Mutation' : 'Subscription';
}

function spanKey(span: SourceSpan): string {
  return `${span.file}:${span.line}:${span.column}`;
}
