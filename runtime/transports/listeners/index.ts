/**
 * The listeners transport (docs/behaviour.md §10.3): runs the application's `@OnEvent(topic)` methods
 * for the events this process publishes on its event bus — the same domain events subscriptions see
 * (`postPublished`), in the process that raised them (not again in the processes LISTEN/NOTIFY
 * carries them to), after the publishing write has committed (services publish after it).
 *
 * A listener runs on a later turn of the event loop, outside the request that raised the event —
 * without a caller and unscoped, explicitly (`withoutCaller`, then `runUnscoped`). Its error is
 * logged with the event and the listener and never reaches that request or the process. At
 * shutdown no new event is observed and running listeners get `APP_HTTP__SHUTDOWN_TIMEOUT` ms.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { runUnscoped, withoutCaller } from '../../auth/context.js';
import { defineTransport, type TransportFactory } from '../index.js';

/** One `@OnEvent(topic)` method, as `generated/listeners.ts` declares it. */
export interface ListenerDefinition {
  /** The topic it listens to (`postPublished`). */
  readonly event: string;
  /** Where it is declared (`AuditService.onPostPublished`). */
  readonly handler: string;
  readonly handle: (payload: unknown) => unknown;
}

/** The listeners transport of an application (module docstring); `create` builds them from the container. */
export function listeners<Container>(create: (container: Container) => readonly ListenerDefinition[]): TransportFactory<Container> {
  return defineTransport<Container>('listeners', ({ config, logger, container, events }) => {
    const log = logger.child({ transport: 'listeners' });
    const byEvent = new Map<string, ListenerDefinition[]>();
    for (const listener of create(container)) byEvent.set(listener.event, [...(byEvent.get(listener.event) ?? []), listener]);
    const running = new Set<Promise<void>>();
    const stop = events.observe((topic, payload) => {
      for (const listener of byEvent.get(topic) ?? []) {
        const run = withoutCaller(() => runListener(listener, topic, payload, log));
        running.add(run);
        void run.finally(() => running.delete(run));
      }
    });
    log.info(
      { listeners: [...byEvent.values()].flat().map((listener) => `${listener.event} → ${listener.handler}`) },
      `listening to ${[...byEvent.keys()].sort().join(', ')} in this process`,
    );
    return {
      name: 'listeners',
      close: async () => {
        stop();
        const finished = await Promise.race([
          Promise.allSettled([...running]).then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), config.http.shutdownTimeout).unref()),
        ]);
        if (!finished) log.warn({ running: running.size }, 'listeners still running at the shutdown timeout');
      },
    };
  });
}

/** Runs one listener for one event on a later turn, unscoped; logs its failure instead of throwing. */
async function runListener(listener: ListenerDefinition, topic: string, payload: unknown, logger: Logger): Promise<void> {
  await nextTurn();
  const id = typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }).id : undefined;
  try {
    await runUnscoped(() => listener.handle(payload));
  } catch (error) {
    logger.error(
      { err: error, event: topic, listener: listener.handler, ...(typeof id === 'string' ? { eventId: id } : {}) },
      `listener ${listener.handler} failed on ${topic}`,
    );
  }
}
