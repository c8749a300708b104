/**
 * Decorator option unknown
 *
 * An options object names only the keys its decorator's options type declares
 * (runtime/declarations/decorators.ts, read through runtime/declarations/decorator-signatures.ts): `@Column({ bogus: true })`
 * or a constraint the runtime does not have yet (`maxLength`) would otherwise be ignored.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import { checkArguments } from '../decorator-arguments.js';
import type { Rule } from '../rule.js';

export const decoratorOptionUnknown: Rule = (app, report) => {
  for (const use of app.decorators) {
    for (const finding of checkArguments(use)) {
      if (finding.kind !== 'unknownOption') continue;
      const known = finding.known.length > 0 ? `it takes ${finding.known.join(', ')}` : 'it takes none';
      report({
        message: `${finding.label} has no option ${finding.key} (${known})${didYouMean(finding.key, finding.known) || '; remove it'}`,
        span: finding.span,
      });
    }
  }
};
