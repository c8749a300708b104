/**
 * Posture subject unknown
 *
 * `@Authorized(action, Subject)` names an entity, on an operation, a route or a gateway's message
 * handler alike: abilities grant actions on entities, and the returned value is masked by that
 * entity's field grants.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { WrittenPosture } from '../../model/model.js';
import { writtenPostures } from '../postures.js';
import type { Rule } from '../rule.js';

export const postureSubjectUnknown: Rule = (app, report) => {
  const check = (postures: readonly WrittenPosture[]): void => {
    for (const posture of postures) {
      if (posture.kind !== 'authorized' || app.entityByName.has(posture.subject)) continue;
      report({
        message: `@Authorized names ${posture.subject}, which is not an @Entity()${didYouMean(posture.subject, app.entityByName.keys())}`,
        span: posture.subjectSpan,
      });
    }
  };
  check(writtenPostures(app));
};
