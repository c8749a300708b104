/**
 * The hand-written baseline of the REST list (BENCHMARKS.md): Express 5 + Prisma, the route a team would
 * write by hand (as in a NestJS controller): verify the bearer token, one `findMany` with the
 * member's scope, `first + 1` rows for the cursor, JSON out. Same answers as `GET /v2/posts`.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { jwtVerify } from 'jose';
import { openPrisma } from './prisma.js';
import type { BenchServer, ServerOptions } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Starts the Express + Prisma route on `options.port`. */
export async function startExpressPrisma(options: ServerOptions): Promise<BenchServer> {
  const prisma = await openPrisma(options.databaseUrl, options.onQuery);
  const secret = new TextEncoder().encode(options.secret);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/v2/posts', async (request, response) => {
    let principal: { sub: string; orgId: string };
    try {
      const { payload } = await jwtVerify((request.headers.authorization ?? '').replace(/^Bearer /, ''), secret, { algorithms: ['HS256'] });
      principal = { sub: String(payload.sub), orgId: String(payload.org_id) };
    } catch {
      response.status(401).json({ code: 'UNAUTHENTICATED' });
      return;
    }
    const rawFirst = typeof request.query.first === 'string' ? Number(request.query.first) : Number.NaN;
    const first = Number.isFinite(rawFirst) ? Math.min(100, Math.max(1, Math.trunc(rawFirst))) : 20;
    const after = typeof request.query.after === 'string' && UUID.test(request.query.after) ? request.query.after.toLowerCase() : undefined;
    const rows = await prisma.post.findMany({
      where: {
        orgId: principal.orgId,
        OR: [{ status: 'published' }, { authorId: principal.sub }],
        ...(after ? { id: { gt: after } } : {}),
      },
      orderBy: { id: 'asc' },
      take: first + 1,
    });
    const items = rows.slice(0, first);
    if (rows.length > first) response.setHeader('x-next-cursor', items.at(-1)?.id ?? '');
    response.json(items);
  });
  const server = app.listen(options.port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prisma.$disconnect();
    },
  };
}
