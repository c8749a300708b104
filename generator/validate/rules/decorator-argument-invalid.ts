/**
 * Decorator argument invalid
 *
 * Every argument and option of a runtime decorator is a value of the kind its signature takes
 * (runtime/declarations/decorator-signatures.ts), written so it can be read without running anything: literals,
 * class names, `() => Entity` thunks, pipes whose arguments are literals or exported names. A value
 * of the wrong kind, a name where a literal belongs, an argument too many or a decorator that is
 * not called would otherwise be ignored or misread.
 */
import { checkArguments, describeKind, describeValue, expectsLiteral, suggestionFor } from '../decorator-arguments.js';
import type { Rule } from '../rule.js';

export const decoratorArgumentInvalid: Rule = (app, report) => {
  for (const use of app.decorators) {
    const name = `@${use.decorator.name}`;
    for (const finding of checkArguments(use)) {
      if (finding.kind === 'notCalled') {
        report({ message: `${name} on ${use.declaration} must be called: write ${name}(…)`, span: finding.span });
      } else if (finding.kind === 'extraArgument') {
        const takes = finding.count === 0 ? 'takes no arguments' : `takes ${finding.count} argument${finding.count === 1 ? '' : 's'}`;
        report({ message: `${name} ${takes}; remove this one`, span: finding.value.span });
      } else if (finding.kind === 'mismatch') {
        const unreadable = (finding.value.kind === 'reference' || finding.value.kind === 'other') && expectsLiteral(finding.expected);
        const written = unreadable
          ? `${describeValue(finding.value)} (generate reads declarations without running them, so write the value itself)`
          : describeValue(finding.value);
        const suggestion = suggestionFor(finding.value, finding.expected);
        const fix = suggestion ? `; did you mean ${suggestion}?` : finding.example ? `, for example ${finding.example}` : '';
        report({ message: `${finding.label} must be ${describeKind(finding.expected)}, not ${written}${fix}`, span: finding.value.span });
      }
    }
  }
};
