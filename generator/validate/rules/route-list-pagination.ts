/**
 * Route list pagination (spec §4.2, §8)
 *
 * A list route is explicit about how it pages. Returning `Page<T>` makes a keyset list (the
 * default mode `cursor`), which takes `first?: Int` and `after?: string`. Returning `T[]` from
 * a GET must declare `pagination: 'none'` (the whole scoped collection, capped at LIST_CAP),
 * and `'none'` cannot return a page.
 */
import type { Rule } from '../rule.js';
import { displayPath } from './operation-posture-missing.js';

export const routeListPagination: Rule = ({ model }, report) => {
  for (const controller of model.controllers) {
    for (const route of controller.routes) {
      const name = `${route.method} ${displayPath(controller.path, route.path)} (${route.owner}.${route.methodName})`;
      const returnsPage = route.returns.kind === 'page';
      const returnsList = route.returns.kind === 'value' && route.returns.type.list;
      if (returnsPage && route.pagination === 'none') {
        report({ message: `${name} declares pagination: 'none' but returns Page<…>; return T[] for a whole list, or drop the option for a keyset list`, span: route.span });
      }
      if (returnsPage) {
        const first = route.params.find((param) => param.name === 'first');
        const after = route.params.find((param) => param.name === 'after');
        const firstOk = first?.type.named.kind === 'scalar' && first.type.named.name === 'Int' && first.type.nullable && !first.type.list;
        const afterOk = after?.type.named.kind === 'scalar' && after.type.named.name === 'String' && after.type.nullable && !after.type.list;
        if (!firstOk || !afterOk) {
          report({ message: `${name} returns a keyset page, so it takes the list arguments: declare \`first?: Int, after?: string\``, span: route.span });
        }
      }
      if (returnsList && route.method === 'GET' && route.pagination !== 'none') {
        report({ message: `${name} returns a whole list; return Page<…> for a keyset list (default), or declare @Get('${route.path}', { pagination: 'none' }) to return the whole scoped collection capped at LIST_CAP`, span: route.span });
      }
    }
  }
};
