/**
 * Decorator argument missing
 *
 * A decorator gets the arguments and options its signature requires (runtime/declarations/decorator-signatures.ts):
 * `@BelongsTo` its target and `column`, `@Authorized` an action and an entity, `@Gateway` its path,
 * `@SubscribeMessage` its event. Without them it cannot mean anything.
 */
import { checkArguments } from '../decorator-arguments.js';
import type { Rule } from '../rule.js';

export const decoratorArgumentMissing: Rule = (app, report) => {
  for (const use of app.decorators) {
    const name = `@${use.decorator.name}`;
    for (const finding of checkArguments(use)) {
      if (finding.kind === 'missingArgument') {
        report({
          message: `${name} on ${use.declaration} needs its ${finding.spec.name}${finding.spec.example ? `, for example ${finding.spec.example}` : ''}`,
          span: finding.span,
        });
      } else if (finding.kind === 'missingOption') {
        report({
          message: `${finding.label} on ${use.declaration} needs the option ${finding.key}${finding.example ? `, for example ${finding.example}` : ''}`,
          span: finding.span,
        });
      }
    }
  }
};
