/**
 * Subscription events across processes and hosts through PostgreSQL (docs/decisions.md §4: several
 * worker processes behind one port, several hosts behind a load balancer): the PostgreSQL dialect's
 * event relay, loaded only when a server starts on PostgreSQL.
 *
 * Every published event is recorded in `resource_service.events` and announced with a NOTIFY in the
 * same statement; every process listening — this one included — delivers it to its own
 * subscribers. The record is what survives an outage: a process whose listening connection was lost
 * (a database restart, a failover, a network cut) catches up from it once it listens again, and a
 * publisher that cannot reach the database keeps its events, in order, and records them once it
 * can. So no event is lost across a restart; one is delivered at most once per process (its
 * sequence number is remembered). Records are kept `replayWindow` milliseconds; a process cut off
 * longer, or a publisher that held events longer, cannot know what it missed and ends its
 * subscriptions with `EVENTS_MISSED` instead (`EventBus.interrupt`, docs/behaviour.md §4.1).
 *
 * Entity events are recorded as `{ topic, entity, id }` and each process reloads the row
 * (unscoped; every subscriber's ability filters it afterwards). A NOTIFY payload is capped at
 * 8 000 bytes: an event whose record is longer is announced by its sequence number alone and read
 * from the table.
 *
 * Order holds end to end: this process's events are recorded through one connection, one after
 * another in publish order, and PostgreSQL delivers a channel's notifications in commit order; on
 * receipt, rows reload concurrently but are delivered in the order their notifications arrived, and
 * a catch-up delivers in sequence order before what arrives after it.
 */
import pg from 'pg';
import type { EventRelay } from '../events/bus.js';
import type { EventRelayOptions } from './dialect.js';
import { ensureServiceTables } from './postgresql-service-schema.js';

/** The channel every process listens on. */
const EVENT_CHANNEL = 'resource_service_events';

/** Largest NOTIFY payload PostgreSQL accepts (bytes), with room to spare. */
const MAX_PAYLOAD = 7_900;

/**
 * How far below the highest sequence number delivered a catch-up looks: numbers are taken at insert
 * and notifications come in commit order, so a lower number can commit after a higher one — at most
 * one in flight per publishing process, far fewer than this.
 */
const REORDER_MARGIN = 1_000;

/** Sequence numbers remembered as delivered (a catch-up and the notifications after it overlap). */
const REMEMBERED = 4 * REORDER_MARGIN;

/** Events a publisher holds while the database cannot be reached; past it the oldest are given up. */
const MAX_HELD = 10_000;

/** Milliseconds between a publisher's attempts to record what it holds, and a listener's to reconnect. */
const RETRY_DELAYS = [100, 250, 500, 1_000] as const;

/** How often each process deletes records older than the replay window (milliseconds). */
const PRUNE_INTERVAL = 60_000;

/** What an event is recorded as. */
type EventMessage =
  { readonly topic: string; readonly entity: string; readonly id: string } | { readonly topic: string; readonly payload: unknown };

/** An event waiting to be recorded, with when it was published (ms since the epoch). */
interface HeldEvent {
  readonly text: string;
  readonly topic: string;
  readonly payload: unknown;
  readonly publishedAt: number;
}

const CREATE_TABLES = [
  'CREATE TABLE IF NOT EXISTS resource_service.events (seq bigserial PRIMARY KEY, message text NOT NULL, published_at timestamptz NOT NULL DEFAULT now())',
  'CREATE INDEX IF NOT EXISTS events_published_at ON resource_service.events (published_at)',
];

/**
 * Records one event and announces it: its sequence number and record in the payload, or the
 * number alone when the record would not fit a NOTIFY.
 */
const RECORD = `WITH recorded AS (INSERT INTO resource_service.events (message) VALUES ($1) RETURNING seq)
SELECT pg_notify('${EVENT_CHANNEL}', CASE WHEN octet_length($1) > ${MAX_PAYLOAD} THEN seq::text ELSE seq::text || ' ' || $1 END) FROM recorded`;

/** The event bus's relay between processes: recorded, announced with NOTIFY, caught up after an outage. */
export class PostgresEventRelay implements EventRelay {
  private listener: pg.Client | undefined;
  private readonly sender: pg.Pool;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private prune: NodeJS.Timeout | undefined;
  /** The delivery of the last event received; the next one is delivered after it. */
  private delivered: Promise<void> = Promise.resolve();
  /** Sequence numbers delivered, oldest first in insertion order (bounded by {@link REMEMBERED}). */
  private readonly seen = new Set<number>();
  /** The highest sequence number delivered, or recorded before this process first listened. */
  private highest = 0;
  /** Below it lies what was recorded before this process first listened: never replayed. */
  private floor = 0;
  /** When the listening connection was lost (ms since the epoch); undefined while listening. */
  private lostAt: number | undefined;
  /** Notifications announced while a catch-up reads the record, delivered after it. */
  private caughtUpAfter: string[] | undefined;
  /** Listening at least once: a later LISTEN is a reconnection, which catches up. */
  private listened = false;
  /** Events this process published, in order, not yet recorded. */
  private readonly held: HeldEvent[] = [];
  private recording = false;
  /** Events given up on since the database was last reached; recorded as a gap once it is. */
  private givenUp = 0;

  constructor(private readonly options: EventRelayOptions) {
    // One connection: events are recorded in the order they were published.
    this.sender = new pg.Pool({ connectionString: options.url, max: 1 });
    this.sender.on('error', (error) => options.logger.warn({ err: error }, 'event sender connection failed'));
  }

  /**
   * Creates the record's table when absent, connects the listening connection and attaches the
   * relay to the bus.
   * @throws the database's error when the table cannot be created (a role without CREATE on the database)
   */
  async start(): Promise<void> {
    const client = await this.sender.connect();
    try {
      await ensureServiceTables(client, CREATE_TABLES);
    } finally {
      client.release();
    }
    this.options.bus.attach(this);
    await this.listen();
    this.prune = setInterval(() => void this.pruneRecords(), PRUNE_INTERVAL).unref();
  }

  private async listen(attempt = 0): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url });
    client.on('notification', (notification) => {
      if (notification.channel === EVENT_CHANNEL && notification.payload) this.announced(notification.payload);
    });
    const reconnect = (error?: Error): void => {
      if (this.closed || this.listener !== client) return;
      this.listener = undefined;
      this.lostAt ??= Date.now();
      this.options.logger.warn({ err: error }, 'event listener lost its connection; reconnecting');
      void client.end().catch(() => undefined);
      this.scheduleRetry(attempt + 1);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENT_CHANNEL}`);
      // Listening now: whatever is recorded from here on is announced; what was recorded while not
      // listening is read from the record (through the sender: the listening session does nothing but listen).
      const { rows } = await this.sender.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM resource_service.events');
      const recorded = Number(rows[0]?.seq ?? 0);
      if (!this.listened) {
        this.listened = true;
        this.floor = recorded;
        this.highest = recorded;
      } else await this.catchUp();
      this.lostAt = undefined;
      attempt = 0;
    } catch (error) {
      reconnect(error as Error);
    }
  }

  private scheduleRetry(attempt: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(
      () => {
        this.retry = undefined;
        void this.listen(attempt);
      },
      RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)],
    );
  }

  /**
   * Delivers what was recorded while this process was not listening, in sequence order. Cut off
   * longer than the replay window, it cannot know what was pruned: its subscriptions end with
   * `EVENTS_MISSED` after what could be read.
   */
  private async catchUp(): Promise<void> {
    const from = Math.max(this.floor, this.highest - REORDER_MARGIN);
    // Announced while reading: delivered after what was read, in the order announced.
    const after: string[] = [];
    this.caughtUpAfter = after;
    try {
      const { rows } = await this.sender.query<{ seq: string; message: string }>(
        'SELECT seq, message FROM resource_service.events WHERE seq > $1 ORDER BY seq',
        [from],
      );
      for (const row of rows) this.receive(Number(row.seq), row.message);
    } finally {
      this.caughtUpAfter = undefined;
      for (const raw of after) this.announced(raw);
    }
    const lostFor = this.lostAt === undefined ? 0 : Date.now() - this.lostAt;
    if (lostFor >= this.options.replayWindow) {
      this.delivered = this.delivered.then(() =>
        this.options.bus.interrupt(`this process could not reach the database for ${String(Math.round(lostFor / 1000))} s`),
      );
    }
  }

  /** A notification's payload: `<seq> <record>`, or `<seq>` alone for a record read from the table. */
  private announced(raw: string): void {
    if (this.caughtUpAfter) {
      this.caughtUpAfter.push(raw);
      return;
    }
    const space = raw.indexOf(' ');
    const seq = Number(space < 0 ? raw : raw.slice(0, space));
    if (!Number.isSafeInteger(seq)) {
      this.options.logger.error({ payload: raw.slice(0, 200) }, 'an event notification names no sequence number; ignored');
      return;
    }
    this.receive(seq, space < 0 ? undefined : raw.slice(space + 1));
  }

  /** Starts loading event `seq` at once; delivers it after every event received before it, once. */
  private receive(seq: number, text: string | undefined): void {
    if (this.seen.has(seq) || seq <= this.floor) return;
    this.remember(seq);
    const loaded = this.load(seq, text);
    this.delivered = this.delivered
      .then(async () => {
        const event = await loaded;
        if (event) this.options.bus.deliver(event.topic, event.payload);
      })
      .catch((error: unknown) => {
        this.options.logger.error({ err: error, seq }, 'could not deliver an event received from the database');
      });
  }

  private remember(seq: number): void {
    this.seen.add(seq);
    if (seq > this.highest) this.highest = seq;
    if (this.seen.size > REMEMBERED) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  /** The topic and payload event `seq` carries, its entity row reloaded; undefined when there is none to deliver. */
  private async load(seq: number, text: string | undefined): Promise<{ topic: string; payload: unknown } | undefined> {
    try {
      let record = text;
      if (record === undefined) {
        const { rows } = await this.sender.query<{ message: string }>('SELECT message FROM resource_service.events WHERE seq = $1', [seq]);
        record = rows[0]?.message;
        if (record === undefined) return undefined;
      }
      const message = JSON.parse(record) as EventMessage & { gap?: number };
      if (typeof message.gap === 'number') {
        this.options.bus.interrupt(`a publisher gave up on ${String(message.gap)} events it could not record`);
        return undefined;
      }
      if (!('entity' in message)) return { topic: message.topic, payload: message.payload };
      const row = await this.options.load(message.entity, message.id);
      return row ? { topic: message.topic, payload: row } : undefined;
    } catch (error) {
      this.options.logger.error({ err: error, seq }, 'could not deliver an event received from the database');
      return undefined;
    }
  }

  /**
   * Sends one event to every process (this one included, which delivers it on receipt): held, in
   * order, until it is recorded.
   */
  send(topic: string, payload: unknown): void {
    const entity = this.options.topicEntities[topic];
    const id = typeof payload === 'object' && payload !== null ? (payload as { id?: unknown }).id : undefined;
    const message: EventMessage = entity && typeof id === 'string' ? { topic, entity, id } : { topic, payload };
    this.held.push({ text: JSON.stringify(message), topic, payload, publishedAt: Date.now() });
    if (this.held.length > MAX_HELD) this.giveUp(this.held.length - MAX_HELD);
    void this.record();
  }

  /**
   * Gives up on the `count` oldest held events: this process's subscribers get them, the others
   * cannot, and are told so by a gap record once the database is reached.
   */
  private giveUp(count: number): void {
    const dropped = this.held.splice(0, count);
    this.givenUp += dropped.length;
    this.options.logger.error(
      { events: dropped.length, topics: [...new Set(dropped.map((event) => event.topic))] },
      'gave up recording events while the database could not be reached; delivered to this process only',
    );
    for (const event of dropped) this.options.bus.deliver(event.topic, event.payload);
  }

  /** Records held events one after another, retrying while the database cannot be reached. */
  private async record(): Promise<void> {
    if (this.recording) return;
    this.recording = true;
    let attempt = 0;
    try {
      while (!this.closed) {
        // Held longer than a listener would catch up for: given up.
        const fresh = this.held.findIndex((event) => Date.now() - event.publishedAt < this.options.replayWindow);
        if (this.held.length > 0 && fresh !== 0) this.giveUp(fresh < 0 ? this.held.length : fresh);
        if (this.held.length === 0 && this.givenUp === 0) return;
        // The one being recorded leaves the queue, so that giving up on the oldest held never takes it.
        const gap = this.givenUp > 0 ? this.givenUp : 0;
        const next = gap > 0 ? undefined : this.held.shift();
        try {
          await this.sender.query(RECORD, [next ? next.text : JSON.stringify({ gap })]);
          if (!next) this.givenUp -= gap;
          attempt = 0;
        } catch (error) {
          if (next) this.held.unshift(next);
          if (attempt === 0) this.options.logger.warn({ err: error, held: this.held.length }, 'could not record an event; retrying');
          const delay = RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)];
          attempt += 1;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /** Deletes records older than the replay window (every process does; they are few). */
  private async pruneRecords(): Promise<void> {
    try {
      await this.sender.query("DELETE FROM resource_service.events WHERE published_at < now() - $1 * interval '1 millisecond'", [
        this.options.replayWindow,
      ]);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not delete old event records; the next prune retries');
    }
  }

  /** Records what is held (a moment, while the database answers), stops listening and closes both connections. */
  async close(): Promise<void> {
    const deadline = Date.now() + 2_000;
    while ((this.held.length > 0 || this.recording) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.prune) clearInterval(this.prune);
    const listener = this.listener;
    this.listener = undefined;
    await Promise.allSettled([listener?.end(), this.sender.end()]);
  }
}
