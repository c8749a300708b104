/**
 * Unscoped in request (docs/behaviour.md §5.9; docs/hostile-input.md §4)
 *
 * Jobs may run unscoped; request transports may not. A `runUnscoped` call reachable from a GraphQL
 * operation or computed field, an HTTP route or a gateway message — through the methods it calls
 * on `this` and on its injected providers — would throw on every request at run time, so it is
 * refused here, at the call, naming one request path that reaches it.
 */
import type { MethodModel, ProviderModel } from '../../model/model.js';
import type { SourceSpan } from '../../model/types.js';
import type { Rule } from '../rule.js';

/** A provider method, and the path of calls that reached it from a request entry point. */
interface Reached {
  readonly provider: ProviderModel;
  readonly method: MethodModel;
  readonly path: readonly string[];
}

export const unscopedInRequest: Rule = (app, report) => {
  const { providerByName } = app.mounted;
  const reported = new Set<string>();
  for (const { name: entry, owner, methodName: method } of app.mounted.requestEntryPoints) {
    const start = providerByName.get(owner);
    const first = start?.methodByName.get(method);
    if (!start || !first) continue;
    const seen = new Set<string>();
    const queue: Reached[] = [{ provider: start, method: first, path: [`${owner}.${method}`] }];
    for (let reached = queue.shift(); reached; reached = queue.shift()) {
      const key = `${reached.provider.name}.${reached.method.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const span of reached.method.unscopedCalls) {
        const at = spanKey(span);
        if (reported.has(at)) continue;
        reported.add(at);
        report({
          message: `runUnscoped in ${key} is reachable from ${entry} (${reached.path.join(' → ')}); request transports may not lift the row scope (docs/behaviour.md §5.9): read through the caller's scope, or move this work into a job, seed, scheduled task or listener`,
          span,
        });
      }
      const dependencies = new Map(reached.provider.dependencies.map((dependency) => [dependency.parameterName, dependency]));
      for (const call of reached.method.calls) {
        let target: ProviderModel | undefined = reached.provider;
        if (call.dependency !== undefined) {
          const resolved = dependencies.get(call.dependency)?.target;
          target = resolved?.kind === 'provider' ? providerByName.get(resolved.provider) : undefined;
        }
        const called = target?.methodByName.get(call.method);
        if (target && called) queue.push({ provider: target, method: called, path: [...reached.path, `${target.name}.${called.name}`] });
      }
    }
  }
};

function spanKey(span: SourceSpan): string {
  return `${span.file}:${span.line}:${span.column}`;
}
