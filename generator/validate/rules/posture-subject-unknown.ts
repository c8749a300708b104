/**
 * Posture subject unknown
 *
 * `@Authorized(action, Subject)` names an entity: abilities grant actions on entities, and the
 * returned value is masked by that entity's field grants.
 */
import { didYouMean } from '../../../runtime/suggest.js';
import type { PostureModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const postureSubjectUnknown: Rule = ({ model }, report) => {
  const entities = model.entities.map((entity) => entity.name);
  const check = (postures: readonly PostureModel[]): void => {
    for (const posture of postures) {
      if (posture.kind !== 'authorized' || entities.includes(posture.subject)) continue;
      report({
        message: `@Authorized names ${posture.subject}, which is not an @Entity()${didYouMean(posture.subject, entities)}`,
        span: posture.span,
      });
    }
  };
  for (const resolver of model.resolvers) for (const operation of resolver.operations) check(operation.postures);
  for (const controller of model.controllers) for (const route of controller.routes) check(route.postures);
};
