/**
 * The transport seam (runtime/transports/index.ts, docs/architecture.md §2): a transport added to an
 * application's list beside the defaults gets its HTTP paths mounted before the version router
 * (served as written whatever version is stated, docs/behaviour.md §9.3.3), its socket path accepted by the
 * server's one acceptor, its check in `/health`, and its `close` called at shutdown while the
 * database is still open.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Container } from '../../generated/container.js';
import type { RequestContext } from '../../runtime/auth/context.js';
import { defineTransport, type TransportFactory } from '../../runtime/transports/index.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

const UNSCOPED: RequestContext = { principal: undefined, ability: undefined, unscoped: true };

let server: InProcessServer;
let stopped = false;
let healthy = true;
const closing: string[] = [];

/** A transport written only against the seam: one neutral HTTP path, one socket path, one health check. */
const extra: TransportFactory<Container> = defineTransport('extra', ({ container }) => ({
  name: 'extra',
  http: {
    placement: 'neutral',
    // Deliberately a path REST versions too (GET /meta answers versions 1 and 2).
    paths: ['/meta'],
    mount: (app) => app.get('/meta', (_request, response) => void response.json({ served: 'extra' })),
  },
  sockets: [
    { name: 'extra-ws', paths: ['/extra-ws'], connect: (client) => client.on('message', (data) => client.send(messageText(data))) },
  ],
  health: [{ name: 'extra', check: () => Promise.resolve(healthy) }],
  close: async () => {
    closing.push('close');
    await container.orgRepository.loadByIds(UNSCOPED, [randomUUID()]);
    closing.push('database still open');
  },
}));

beforeAll(async () => {
  server = await startInProcessServer({
    // Debug: the paths a transport mounts are logged at debug (docs/decisions.md §4).
    env: { APP_HTTP__VERSIONING: 'header', APP_LOG__LEVEL: 'debug' },
    adjust: (definition) => ({ ...definition, transports: [...definition.transports, extra] }),
  });
});

afterAll(async () => {
  if (!stopped) await server?.stop();
});

async function eventually(condition: () => Promise<boolean>, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a transport added beside the defaults', () => {
  it('is mounted before the version router: its path is served as written whatever version is stated', async () => {
    for (const version of [undefined, '1', '9', 'bad!']) {
      const response = await fetch(`${server.url}/meta`, { headers: version ? { 'X-API-Version': version } : {} });
      expect({ version, status: response.status }).toEqual({ version, status: 200 });
      expect(await response.json()).toEqual({ served: 'extra' });
    }
    expect(server.logs).toContainEqual(expect.objectContaining({ level: 20, transport: 'extra', paths: ['/meta'] }));
  });

  it('has its socket path accepted by the server', async () => {
    const client = new WebSocket(`${server.url.replace('http', 'ws')}/extra-ws`);
    await new Promise((resolve, reject) => {
      client.once('open', resolve);
      client.once('error', reject);
    });
    const echoed = new Promise((resolve) => client.once('message', (data) => resolve(messageText(data))));
    client.send('hello');
    expect(await echoed).toBe('hello');
    client.close();
    expect(server.logs).toContainEqual(expect.objectContaining({ socket: '/extra-ws', transport: 'extra-ws' }));
  });

  it('contributes its check to /health, which answers 503 once it is down', async () => {
    const health = async (): Promise<{ status: number; body: unknown }> => {
      const response = await fetch(`${server.url}/health`);
      return { status: response.status, body: await response.json() };
    };
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', db: 'ok', jobs: 'ok', extra: 'ok' } });
    healthy = false;
    await eventually(async () => (await health()).status === 503, 5_000);
    expect(await health()).toEqual({ status: 503, body: { status: 'unavailable', db: 'ok', jobs: 'ok', extra: 'down' } });
    healthy = true;
    await eventually(async () => (await health()).status === 200, 5_000);
  });

  it('is closed at shutdown before the database', async () => {
    stopped = true;
    await server.stop();
    expect(closing).toEqual(['close', 'database still open']);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'stopped' });
  });
});

describe('a self-mounted transport mounting outside the paths it declares', () => {
  /** A transport declaring `/extra` whose `mount` does `mounts` on the app. */
  const mounting = (mounts: (app: import('express').Express) => void): TransportFactory<Container> =>
    defineTransport('stray', () => ({
      name: 'stray',
      http: { placement: 'neutral', paths: ['/extra', '/extra-assets/*'], mount: mounts },
    }));

  it.each([
    [
      'middleware without a path (an allowlist for everything, say)',
      (app: import('express').Express) => void app.use((_request, _response, next) => next()),
      'use(without a path)',
    ],
    [
      'a route at a path it does not declare',
      (app: import('express').Express) => void app.get('/elsewhere', (_request, response) => void response.end()),
      'get("/elsewhere")',
    ],
    [
      'a path below an exact entry',
      (app: import('express').Express) => void app.all('/extra/more', (_request, response) => void response.end()),
      'all("/extra/more")',
    ],
  ])('fails boot for %s, naming the transport and the path', async (_case, mounts, named) => {
    const started = startInProcessServer({
      adjust: (definition) => ({ ...definition, transports: [...definition.transports, mounting(mounts)] }),
    });
    await expect(started).rejects.toThrow(`the stray transport mounts ${named}`);
  });

  it('boots when every handler is at a declared path or below an entry ending in /*', async () => {
    const started = await startInProcessServer({
      adjust: (definition) => ({
        ...definition,
        transports: [
          ...definition.transports,
          mounting((app) => {
            app.get('/extra', (_request, response) => void response.json({ served: 'extra' }));
            app.use('/extra-assets', (_request, response) => void response.json({ served: 'assets' }));
            app.get('/extra-assets/deep/file.js', (_request, response) => void response.end());
          }),
        ],
      }),
    });
    try {
      expect(await (await fetch(`${started.url}/extra`)).json()).toEqual({ served: 'extra' });
    } finally {
      await started.stop();
    }
  });
});
