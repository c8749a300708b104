/**
 * Operation posture missing (docs/behaviour.md §1, §5)
 *
 * Every GraphQL operation and HTTP route declares an access posture: `@Public()` (deliberately
 * ungated) or `@Authorized(action, Entity)`. One with neither is refused, so nothing is
 * exposed by accident.
 */
import type { Rule } from '../rule.js';

const FIX = "has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately";

export const operationPostureMissing: Rule = (app, report) => {
  for (const entry of app.requestEntryPoints) {
    // A computed field has no posture of its own: its parent's gate covers it.
    if (entry.kind === 'computedField' || entry.postures.length > 0) continue;
    report({ message: `${entry.name} (${entry.owner}.${entry.methodName}) ${FIX}`, span: entry.span });
  }
};
