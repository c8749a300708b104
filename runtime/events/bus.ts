/**
 * The event bus behind subscriptions (docs/behaviour.md §4.1, docs/decisions.md §4): services publish items on a
 * topic, subscription resolvers iterate them. In process it is `graphql-subscriptions`' PubSub;
 * an {@link EventRelay} between processes (PostgreSQL LISTEN/NOTIFY) can be attached so every worker's
 * subscribers see every publish.
 *
 * Every subscription holds a bounded queue: items wait there while the subscriber's socket is
 * busy sending earlier ones. A subscriber that falls `maxQueued` items behind is too slow to
 * keep up: its queue is dropped, it is unsubscribed, the handler of {@link asSubscriber} is told
 * (the WebSocket layer closes the connection) and its iterator fails with {@link SlowConsumerError},
 * instead of letting the queue, and the server's memory, grow without bound.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { PubSub } from 'graphql-subscriptions';
import { unmaskedRow } from '../auth/originals.js';

/** Told, once, that a subscription created in its scope fell too far behind. */
export type SlowConsumerHandler = (error: SlowConsumerError) => void;

const subscriberScope = new AsyncLocalStorage<SlowConsumerHandler>();

/**
 * Runs `body` (which creates subscriptions) so that a subscription it creates reports falling
 * behind to `onSlowConsumer` at once, while its reader may still be blocked on a stalled socket.
 * The graphql-ws transport uses it to close that connection.
 */
export function asSubscriber<T>(onSlowConsumer: SlowConsumerHandler, body: () => T): T {
  return subscriberScope.run(onSlowConsumer, body);
}

/**
 * Carries events between processes (a dialect's, when its database can: PostgreSQL LISTEN/NOTIFY,
 * runtime/dialects/postgresql-events.ts); attached by the server. Without one, events stay in the
 * process that published them.
 */
export interface EventRelay {
  /** Sends one event to every process (including this one, which must then deliver it). */
  send(topic: string, payload: unknown): void;
}

/** Options of {@link EventBus}. */
export interface EventBusOptions {
  /** Items one subscription may hold unsent before it is dropped as too slow (default 1000). */
  readonly maxQueued?: number;
}

/** A subscriber fell `limit` items behind on `topic`: its subscription ends. */
export class SlowConsumerError extends Error {
  constructor(
    readonly topic: string,
    readonly limit: number,
  ) {
    super(`subscriber fell ${limit} items behind on ${topic}`);
    this.name = 'SlowConsumerError';
  }
}

/**
 * Events a subscription should have had may not have reached it: the process was cut off from the
 * database longer than events are kept for it to catch up (`APP_GRAPHQL__EVENT_REPLAY_WINDOW`), or a
 * publisher could not record events before giving up on them (docs/behaviour.md §4.1). The
 * subscription ends with this error, its resume signal: read again what it follows, then subscribe
 * again.
 */
export class EventsMissedError extends Error {
  constructor(readonly reason: string) {
    super(`events may have been missed (${reason}); read again what this subscription follows, then subscribe again`);
    this.name = 'EventsMissedError';
  }
}

/** Told of every event published in this process (in-process listeners, docs/behaviour.md §10.3). Must not throw. */
export type PublishObserver = (topic: string, payload: unknown) => void;

/** Publishes and subscribes to topics. One instance per process, injected into services. */
export class EventBus {
  // One listener per subscription: how many is bounded by the subscription caps (docs/hostile-input.md
  // §16), not by EventEmitter's warning at 10.
  private readonly local = new PubSub<Record<string, unknown>>({ eventEmitter: new EventEmitter().setMaxListeners(0) });
  private readonly maxQueued: number;
  private relay: EventRelay | undefined;
  private readonly observers = new Set<PublishObserver>();
  /** Every open subscription, told when events may have been missed ({@link interrupt}). */
  private readonly subscriptions = new Set<BoundedSubscription<unknown>>();

  constructor(options: EventBusOptions = {}) {
    this.maxQueued = options.maxQueued ?? 1000;
  }

  /** Routes publishes through `relay` (which must call {@link deliver} on every process). */
  attach(relay: EventRelay): void {
    this.relay = relay;
  }

  /**
   * Tells `observer` of every event published in this process from now on — only this process's:
   * events received from other processes through the relay are not observed. Returns the
   * function that stops it.
   */
  observe(observer: PublishObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * Publishes `payload` on `topic` to every subscriber (in every process when a relay is
   * attached) and tells this process's observers. Services publish after their write has committed.
   * A row masked to the publisher's grant is published whole: each subscriber is filtered and masked
   * to its own (docs/behaviour.md §4.1), and listeners see whole rows (§10.3).
   */
  publish(topic: string, item: unknown): void {
    const payload = typeof item === 'object' && item !== null ? unmaskedRow(item) : item;
    for (const observer of this.observers) observer(topic, payload);
    if (this.relay) this.relay.send(topic, payload);
    else void this.local.publish(topic, payload);
  }

  /** Delivers an event received from the relay to this process's subscribers. */
  deliver(topic: string, payload: unknown): void {
    void this.local.publish(topic, payload);
  }

  /**
   * An async iterator over the items published on `topic` from now on, holding at most
   * `maxQueued` unread items; past that, `next()` rejects with {@link SlowConsumerError}.
   */
  subscribe<T>(topic: string): AsyncIterableIterator<T> {
    return new BoundedSubscription<T>(this.local, topic, this.maxQueued, this.subscriptions as Set<BoundedSubscription<T>>);
  }

  /**
   * Ends every open subscription with {@link EventsMissedError} (`reason` says why): events may have
   * been published that this process's subscribers did not get (the relay's catch-up could not
   * cover a gap). Items already queued for a subscription are sent before the error.
   */
  interrupt(reason: string): void {
    for (const subscription of [...this.subscriptions]) subscription.interrupt(new EventsMissedError(reason));
  }
}

/** One subscription's queue between the publishers and its reader. */
class BoundedSubscription<T> implements AsyncIterableIterator<T> {
  private readonly queued: T[] = [];
  private readonly waiting: Array<{ resolve(result: IteratorResult<T>): void; reject(error: Error): void }> = [];
  private readonly subscription: Promise<number>;
  private readonly onSlowConsumer = subscriberScope.getStore();
  private failure: SlowConsumerError | undefined;
  /** Why the subscription ends once its queue is sent ({@link interrupt}). */
  private missed: EventsMissedError | undefined;
  private done = false;

  constructor(
    private readonly pubsub: PubSub<Record<string, unknown>>,
    private readonly topic: string,
    private readonly limit: number,
    private readonly open: Set<BoundedSubscription<T>>,
  ) {
    this.subscription = pubsub.subscribe(topic, (item: T) => this.push(item));
    open.add(this);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.failure) return Promise.reject(this.failure);
    const item = this.queued.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.missed) return Promise.reject(this.missed);
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async return(): Promise<IteratorResult<T>> {
    await this.stop();
    for (const waiter of this.waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.stop();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private push(item: T): void {
    if (this.done) return;
    const waiter = this.waiting.shift();
    if (waiter) {
      waiter.resolve({ value: item, done: false });
      return;
    }
    if (this.queued.length >= this.limit) {
      this.failure = new SlowConsumerError(this.topic, this.limit);
      this.queued.length = 0;
      void this.stop();
      this.onSlowConsumer?.(this.failure);
      return;
    }
    this.queued.push(item);
  }

  /** Ends the subscription with `error` once what is queued has been read (docs/behaviour.md §4.1). */
  interrupt(error: EventsMissedError): void {
    if (this.done) return;
    this.missed = error;
    void this.stop();
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }

  private async stop(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.open.delete(this);
    this.pubsub.unsubscribe(await this.subscription);
  }
}
