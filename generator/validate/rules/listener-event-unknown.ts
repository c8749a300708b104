/**
 * Listener event unknown (docs/behaviour.md §10.3)
 *
 * An `@OnEvent(topic)` runs for events published on the event bus in the process. When every
 * publish of the mounted providers names its topic with a string literal
 * (`this.events.publish('postPublished', …)`), the topics raised are known at build time and a
 * listener on any other topic would never run: a warning, with the closest topic. When some publish
 * computes its topic, what is raised cannot be decided, and the rule stays silent. A warning, not an
 * error: an event published from code the generator does not read (outside a provider) still
 * reaches the listener.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const listenerEventUnknown: Rule = (app, report) => {
  const { topics, decidable } = app.mounted.publishedTopics;
  if (!decidable) return;
  const known = [...topics].sort();
  for (const listener of app.mounted.listeners) {
    if (listener.event === undefined || !listener.eventSpan || topics.has(listener.event)) continue;
    report({
      severity: 'warning',
      message: `${listener.owner}.${listener.methodName} listens to '${listener.event}', which no mounted provider publishes${didYouMean(listener.event, known)}${known.length > 0 ? ` (published: ${known.join(', ')})` : ' (nothing is published)'}; it would never run: listen to a published topic, or publish '${listener.event}' (this.events.publish('${listener.event}', …))`,
      span: listener.eventSpan,
    });
  }
};
