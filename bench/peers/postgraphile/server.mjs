/**
 * The PostGraphile v5 peer (BENCHMARKS.md): PostGraphile in library mode as its docs teach it — the
 * Amber preset, `makePgService` over the `public` schema, Grafserv on `node:http` — with the
 * caller's scope left to PostgreSQL's row-level security (./setup.sql): the bearer token is
 * verified here (with `jose`, as every server of the benchmark) and its claims handed to each
 * request's transaction as `pgSettings` (the "JWT guide": you verify, PostGraphile sets them).
 * Nothing else is configured: the schema and its names are Amber's (`allUsers`, `userByRowId`, a
 * table's `id` column as `rowId`, relations as `orgByOrgId` and `postsByAuthorId` connections), so
 * the benchmark sends it its own documents and compares the rows (bench/postgraphile.ts).
 *
 * Runs on Node ≥ 22, from its own folder with its own dependencies (package.json and its lock file,
 * installed by `npm run bench` into `dist/peers/postgraphile/`, bench/postgraphile.ts): plain
 * JavaScript, since the project's compiler and dependencies do not reach it. Started as
 * `node server.mjs` with `BENCH_DATABASE_URL` (the `bench_postgraphile` role) and `BENCH_SECRET`;
 * prints `{"url": …}` once listening and stops on SIGTERM, as bench/servers/index.ts does.
 */
import { createServer } from 'node:http';
import process from 'node:process';
import { TextEncoder } from 'node:util';
import { jwtVerify } from 'jose';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const secret = new TextEncoder().encode(process.env.BENCH_SECRET ?? '');

/** The database role of each token role the benchmark sends (./setup.sql); any other is refused. */
const ROLES = new Map([
  ['member', 'bench_postgraphile_member'],
  ['admin', 'bench_postgraphile_admin'],
]);

/**
 * The request's `pgSettings` from its bearer token: the caller's database role and the claims the
 * policies read. Throws (the request is refused) without a valid token or with a role not in {@link ROLES}.
 */
async function pgSettingsOf(authorization) {
  const [scheme, token] = (authorization ?? '').split(' ');
  if (scheme !== 'Bearer' || !token) throw new Error('unauthenticated');
  const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
  const role = ROLES.get(String(payload.role));
  if (!role) throw new Error('no database role for this token');
  return {
    role,
    'jwt.claims.sub': String(payload.sub),
    'jwt.claims.org_id': String(payload.org_id),
    'jwt.claims.role': String(payload.role),
  };
}

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.BENCH_DATABASE_URL, schemas: ['public'] })],
  grafserv: { graphiql: false, watch: false },
  grafast: {
    explain: false,
    async context(requestContext) {
      return { pgSettings: await pgSettingsOf(requestContext.node?.req.headers.authorization) };
    },
  },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server).catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
// The schema is built before the first request is timed (the bench checks answers first anyway).
await pgl.getSchema();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
process.once('SIGTERM', () => {
  server.close();
  void Promise.resolve(pgl.release()).then(() => process.exit(0));
});
