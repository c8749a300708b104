/**
 * Decorator unknown
 *
 * Every decorator imported from runtime/declarations/decorators.ts is one it exports: a name it does not export
 * (`@Resource` before the runtime has it, a misspelt `@Colum`) would otherwise be ignored by
 * `generate`, and only `tsc` would notice.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import { DECORATOR_NAMES, signatureOf } from '../decorator-arguments.js';
import type { Rule } from '../rule.js';

export const decoratorUnknown: Rule = (app, report) => {
  for (const { decorator, declaration } of app.decorators) {
    if (signatureOf(decorator.name)) continue;
    report({
      message: `@${decorator.name} on ${declaration} is not a decorator resource-service exports, so generate would ignore it${didYouMean(decorator.name, DECORATOR_NAMES) || '; use one the package exports, or remove it'}`,
      span: decorator.span,
    });
  }
};
