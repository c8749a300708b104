/**
 * Clients of a multi-host bed (./hosts.ts): requests through its balancer that report the host that
 * answered (HAProxy's `x-served-by`), a graphql-ws subscriber, and one-off queries on the bed's
 * database or its pooler's admin console.
 */
import { type Client, createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import type { HostBed } from './hosts.js';

/** Runs one query on a connection of its own (simple protocol when `values` is empty, as PgBouncer's console needs). */
export async function queryOnce<Row extends object>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (values.length === 0 ? await client.query<Row>(text) : await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** What {@link readDigestTicks} found in the `Digest` table. */
export interface DigestTicks {
  /** Distinct ticks (`periodEnd`) with at least one digest. */
  readonly ticks: number;
  /** Org and tick pairs written more than once: a tick that fired on two processes. */
  readonly doubled: readonly string[];
  /** Digests of every tick but the newest, which may still be writing when the query reads. */
  readonly settled: number;
}

/**
 * Reads the digests the scheduled task `writeDigests` wrote (docs/behaviour.md §10.2): one per org
 * per tick when each tick fires once for the whole cluster.
 */
export async function readDigestTicks(url: string): Promise<DigestTicks> {
  const rows = await queryOnce<{ orgId: string; periodEnd: Date; count: string }>(
    url,
    'SELECT "orgId", "periodEnd", count(*) AS count FROM "Digest" GROUP BY 1, 2',
  );
  const ticks = [...new Set(rows.map((row) => row.periodEnd.toISOString()))].sort();
  const newest = ticks.at(-1);
  return {
    ticks: ticks.length,
    doubled: rows.filter((row) => Number(row.count) !== 1).map((row) => `${row.orgId} at ${row.periodEnd.toISOString()}`),
    settled: rows.filter((row) => row.periodEnd.toISOString() !== newest).length,
  };
}

/** What {@link through} answers: the status, the JSON body (undefined when empty) and the host that answered. */
export interface BedAnswer {
  readonly status: number;
  readonly body: Record<string, unknown> | undefined;
  readonly host: string;
}

/** A request through the bed's balancer with a bearer token, bounded to 10 s. */
export async function through(
  bed: HostBed,
  pathname: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<BedAnswer> {
  const response = await fetch(`${bed.url}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    host: response.headers.get('x-served-by') ?? '',
  };
}

/** A subscriber connected through the balancer: what it received, and the host its WebSocket landed on. */
export interface BedSubscriber<Item> {
  readonly host: string;
  readonly items: Item[];
  readonly client: Client;
}

/**
 * Opens a graphql-ws connection through the bed's balancer with `token` and starts `query` on it;
 * resolves once the server acknowledged the connection. The caller disposes of `client`.
 */
export async function subscribeThrough<Item>(bed: HostBed, token: string, query: string): Promise<BedSubscriber<Item>> {
  let host = '';
  const Recording = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      this.once('upgrade', (response) => (host = String(response.headers['x-served-by'] ?? '')));
    }
  };
  const client = createClient({
    url: `${bed.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: Recording,
    connectionParams: { Authorization: `Bearer ${token}` },
    lazy: false,
    retryAttempts: 0,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no connection_ack through the balancer')), 10_000);
    client.on('connected', () => {
      clearTimeout(timer);
      resolve();
    });
    client.on('closed', (event) => reject(new Error(`closed before connecting: ${JSON.stringify(event)}`)));
  });
  const items: Item[] = [];
  client.subscribe<Item>(
    { query },
    {
      next: (value) => {
        if (value.data) items.push(value.data);
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
  return { host, items, client };
}
