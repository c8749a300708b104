/**
 * Provider unmounted (docs/behaviour.md §1: what is served is what `AppModule` reaches)
 *
 * A controller, resolver, gateway, model-context host, job processor or service that no module
 * reachable from `AppModule` lists is not constructed: its routes, fields and handlers are not
 * served, and nothing else would say so. A warning naming the module to list it in: the module
 * that already lists it (then that module is not imported), else a module of the same file or
 * the same name (`stats.controller.ts` → `StatsModule`), else `AppModule`. A warning, not an error:
 * a class kept for later is not a mistake. Silent for `@Abilities()` classes (`abilities-missing`
 * reports those) and for a service a mounted provider injects (`provider-dependency-unresolved`).
 */
import path from 'node:path';
import type { ModuleModel, ProviderModel, ResolvedApp } from '../../model/model.js';
import type { Rule } from '../rule.js';

const WHAT: Readonly<Record<ProviderModel['role'], string>> = {
  controller: 'its routes are not served',
  resolver: 'its GraphQL fields are not served',
  gateway: 'its socket messages are not handled',
  mcpHost: 'its model-context host is not served',
  processor: 'its jobs are not processed',
  service: 'it is not constructed (its scheduled tasks and listeners do not run)',
  abilities: '',
};

/** The module a class of `file` most likely belongs to: one in the same file, then one named like the file, then the root. */
function homeModule(app: ResolvedApp, file: string, root: ModuleModel): ModuleModel {
  const singular = (name: string): string => name.replace(/[-_]/g, '').toLowerCase().replace(/s$/, '');
  const stem = singular(path.posix.basename(file).split('.')[0] ?? '');
  const inFile = app.modules.find((module) => module.span.file === file);
  const named = app.modules.find((module) => singular(module.name.replace(/Module$/, '')) === stem);
  return inFile ?? named ?? root;
}

export const providerUnmounted: Rule = (app, report) => {
  const { root } = app.mounted;
  if (!root) return;
  const injected = new Set(app.mounted.providers.flatMap((provider) => provider.dependencies.map((dependency) => dependency.typeName)));
  const reachable = new Set(app.mounted.modules.map((module) => module.name));
  for (const provider of app.providers) {
    if (provider.role === 'abilities' || app.mounted.providerByName.has(provider.name) || injected.has(provider.name)) continue;
    const list = provider.role === 'controller' ? 'controllers' : 'providers';
    const listing = app.modules.find((module) =>
      [...module.providers, ...module.controllers].some((entry) => entry.name === provider.name),
    );
    if (listing && !reachable.has(listing.name)) {
      const importer = homeModule(app, listing.span.file, root);
      const into = importer.name === listing.name ? root : importer;
      report({
        severity: 'warning',
        message: `${provider.name} is listed by ${listing.name}, which no module reachable from AppModule imports, so ${WHAT[provider.role]}; add ${listing.name} to the imports of ${into.name} (${into.span.file}:${into.span.line})`,
        span: provider.span,
      });
      continue;
    }
    const home = homeModule(app, provider.source.file, root);
    report({
      severity: 'warning',
      message: `${provider.name} is listed by no module reachable from AppModule, so ${WHAT[provider.role]}; add it to the ${list} of ${home.name} (${home.span.file}:${home.span.line})`,
      span: provider.span,
    });
  }
};
