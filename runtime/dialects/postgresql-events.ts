/**
 * Subscription events across processes and hosts through PostgreSQL `LISTEN/NOTIFY` (docs/decisions.md §4:
 * several worker processes behind one port, several hosts behind a load balancer): the
 * PostgreSQL dialect's event relay, loaded only when a server starts on PostgreSQL.
 *
 * A publish sends one NOTIFY on a shared channel; every process listening — this one included —
 * delivers it to its own subscribers. A NOTIFY payload is capped at 8 000 bytes and an entity row
 * may be larger (a post body alone may be 10 000 characters), so entity events travel as
 * `{ topic, entity, id }` and each process reloads the row (unscoped; every subscriber's ability
 * filters it afterwards). The listening connection reconnects by itself after a database outage.
 *
 * Order holds end to end: this process's NOTIFYs leave through one connection, in publish order,
 * and PostgreSQL delivers a channel's notifications in commit order; on receipt, rows reload
 * concurrently but are delivered in the order their notifications arrived.
 */
import pg from 'pg';
import type { EventRelay } from '../events/bus.js';
import type { EventRelayOptions } from './dialect.js';

/** The channel every process listens on. */
const EVENT_CHANNEL = 'resource_service_events';

/** Largest NOTIFY payload PostgreSQL accepts (bytes), with room to spare. */
const MAX_PAYLOAD = 7_900;

/** What travels in a NOTIFY. */
type EventMessage =
  { readonly topic: string; readonly entity: string; readonly id: string } | { readonly topic: string; readonly payload: unknown };

/** The event bus's LISTEN/NOTIFY relay between processes. */
export class PostgresEventRelay implements EventRelay {
  private listener: pg.Client | undefined;
  private readonly sender: pg.Pool;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** The delivery of the last notification received; the next one is delivered after it. */
  private delivered: Promise<void> = Promise.resolve();

  constructor(private readonly options: EventRelayOptions) {
    // One connection: NOTIFYs leave in the order they were published.
    this.sender = new pg.Pool({ connectionString: options.url, max: 1 });
    this.sender.on('error', (error) => options.logger.warn({ err: error }, 'event sender connection failed'));
  }

  /** Connects the listening connection and attaches the relay to the bus. */
  async start(): Promise<void> {
    this.options.bus.attach(this);
    await this.listen();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url });
    client.on('notification', (notification) => {
      if (notification.channel === EVENT_CHANNEL && notification.payload) this.receive(notification.payload);
    });
    const reconnect = (error?: Error): void => {
      if (this.closed || this.listener !== client) return;
      this.listener = undefined;
      this.options.logger.warn({ err: error }, 'event listener lost its connection; reconnecting');
      void client.end().catch(() => undefined);
      this.scheduleRetry(1_000);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENT_CHANNEL}`);
    } catch (error) {
      reconnect(error as Error);
    }
  }

  private scheduleRetry(delay: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listen();
    }, delay);
  }

  /** Starts loading what `raw` names at once; delivers it after every notification received before it. */
  private receive(raw: string): void {
    const loaded = this.load(raw);
    this.delivered = this.delivered
      .then(async () => {
        const event = await loaded;
        if (event) this.options.bus.deliver(event.topic, event.payload);
      })
      .catch((error: unknown) => {
        this.options.logger.error({ err: error }, 'could not deliver an event received through LISTEN/NOTIFY');
      });
  }

  /** The topic and payload a notification carries, its entity row reloaded; undefined when there is none to deliver. */
  private async load(raw: string): Promise<{ topic: string; payload: unknown } | undefined> {
    try {
      const message = JSON.parse(raw) as EventMessage;
      if (!('entity' in message)) return { topic: message.topic, payload: message.payload };
      const row = await this.options.load(message.entity, message.id);
      return row ? { topic: message.topic, payload: row } : undefined;
    } catch (error) {
      this.options.logger.error({ err: error }, 'could not deliver an event received through LISTEN/NOTIFY');
      return undefined;
    }
  }

  /** Sends one event to every process (this one included, which delivers it on receipt). */
  send(topic: string, payload: unknown): void {
    const entity = this.options.topicEntities[topic];
    const id = typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }).id : undefined;
    const message: EventMessage = entity && typeof id === 'string' ? { topic, entity, id } : { topic, payload };
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) > MAX_PAYLOAD) {
      this.options.logger.error({ topic }, `event on ${topic} is too large for NOTIFY; delivered to this process only`);
      this.options.bus.deliver(topic, payload);
      return;
    }
    this.sender.query('SELECT pg_notify($1, $2)', [EVENT_CHANNEL, text]).catch((error: unknown) => {
      this.options.logger.error({ err: error, topic }, 'could not publish an event through NOTIFY; delivered to this process only');
      this.options.bus.deliver(topic, payload);
    });
  }

  /** Stops listening and closes both connections. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const listener = this.listener;
    this.listener = undefined;
    await Promise.allSettled([listener?.end(), this.sender.end()]);
  }
}
