/**
 * Route list pagination (docs/behaviour.md §4.2, §8)
 *
 * A list route is explicit about how it pages. Returning `Page<T>` makes a keyset list (the
 * default mode `cursor`), which takes `first?: Int` and `after?: string`. Returning `T[]` from
 * a GET must declare `pagination: 'none'` (the whole scoped collection, capped at LIST_CAP),
 * and `'none'` cannot return a page.
 */
import type { ParamModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

const optionalScalar = (param: ParamModel | undefined, scalar: 'Int' | 'String'): boolean =>
  param?.type.named.kind === 'scalar' && param.type.named.name === scalar && param.type.nullable && !param.type.list;

export const routeListPagination: Rule = (app, report) => {
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      // A pagination written wrong is reported where it is written (decorator-argument-invalid).
      if (!route.paginationKnown) continue;
      const name = `${route.method} ${route.fullPath} (${route.owner}.${route.methodName})`;
      if (route.page && route.pagination === 'none') {
        report({
          message: `${name} declares pagination: 'none' but returns Page<…>; return T[] for a whole list, or drop the option for a keyset list`,
          span: route.span,
        });
      }
      if (route.page && !(optionalScalar(route.page.first, 'Int') && optionalScalar(route.page.after, 'String'))) {
        report({
          message: `${name} returns a keyset page, so it takes the list arguments: declare \`first?: Int, after?: string\``,
          span: route.span,
        });
      }
      if (route.reply === 'list' && route.method === 'GET' && route.pagination !== 'none') {
        report({
          message: `${name} returns a whole list; return Page<…> for a keyset list (default), or declare @Get('${route.path}', { pagination: 'none' }) to return the whole scoped collection capped at LIST_CAP`,
          span: route.span,
        });
      }
    }
  }
};
