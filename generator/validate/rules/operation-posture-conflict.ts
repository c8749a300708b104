/**
 * Operation posture conflict (docs/behaviour.md §1)
 *
 * An operation has exactly one posture. `@Public()` together with `@Authorized(…)`, or two
 * `@Authorized(…)`, leaves its access ambiguous and is refused.
 */
import type { WrittenPosture } from '../../model/model.js';
import type { Rule } from '../rule.js';

const describe = (posture: WrittenPosture): string =>
  posture.kind === 'public'
    ? '@Public()'
    : posture.kind === 'authorized'
      ? `@Authorized('${posture.action}', ${posture.subject})`
      : '@Authorized(…)';

export const operationPostureConflict: Rule = (app, report) => {
  const check = (name: string, postures: readonly WrittenPosture[]): void => {
    const [first, ...rest] = postures;
    if (!first) return;
    for (const extra of rest) {
      report({
        message: `${name} declares both ${describe(first)} and ${describe(extra)}; an operation has exactly one posture, so remove one of them`,
        span: extra.span,
        related: [{ message: `first posture of ${name}`, span: first.span }],
      });
    }
  };
  for (const entry of app.requestEntryPoints) check(`${entry.name} (${entry.owner}.${entry.methodName})`, entry.postures);
};
