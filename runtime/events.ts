/**
 * The event bus behind subscriptions (spec §4.1, PRODUCT.md §4): services publish items on a
 * topic, subscription resolvers iterate them. In process it is `graphql-subscriptions`' PubSub;
 * a cross-process transport (PostgreSQL LISTEN/NOTIFY) can be attached so every worker's
 * subscribers see every publish.
 */
import { PubSub } from 'graphql-subscriptions';

/** Carries events between processes; attached by the server when the database supports it. */
export interface EventTransport {
  /** Sends one event to every process (including this one, which must then deliver it). */
  send(topic: string, payload: unknown): void;
}

/** Publishes and subscribes to topics. One instance per process, injected into services. */
export class EventBus {
  private readonly local = new PubSub<Record<string, unknown>>();
  private transport: EventTransport | undefined;

  /** Routes publishes through `transport` (which must call {@link deliver} on every process). */
  attach(transport: EventTransport): void {
    this.transport = transport;
  }

  /** Publishes `payload` on `topic` to every subscriber (in every process when a transport is attached). */
  publish(topic: string, payload: unknown): void {
    if (this.transport) this.transport.send(topic, payload);
    else void this.local.publish(topic, payload);
  }

  /** Delivers an event received from the transport to this process's subscribers. */
  deliver(topic: string, payload: unknown): void {
    void this.local.publish(topic, payload);
  }

  /** An async iterator over the items published on `topic` from now on. */
  subscribe<T>(topic: string): AsyncIterableIterator<T> {
    return this.local.asyncIterableIterator<T>(topic);
  }
}
