/**
 * The benchmark's published form (BENCHMARKS.md): BENCHMARKS.md (machine, method, tables, targets) and
 * an SVG bar chart of every variant's req/s as a ratio to the floor of its scenario.
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
  /** Largest RSS of the serving process seen after a run, megabytes. */
  readonly rssMegabytes: number;
  readonly ratioToFloor: number;
}

/** One scenario's variants. */
export interface ScenarioReport {
  readonly id: string;
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

/** One target of the issue and whether it was met. */
export interface TargetRow {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** Everything a run measured. */
export interface Report {
  readonly date: string;
  readonly machine: { cpu: string; cores: number; memoryGigabytes: number; os: string; node: string };
  readonly method: { seconds: number; warmup: number; rounds: number; connections: number; generatorRuns: number; pinning: string; quick: boolean };
  readonly scenarios: readonly ScenarioReport[];
  readonly statements: readonly StatementRow[];
  readonly generator: readonly GeneratorCase[];
  readonly idleRssMegabytes: number;
  /** Idle RSS of every server process, megabytes. */
  readonly idleRss: { readonly generated: number; readonly floor: number; readonly expressPrisma: number; readonly naive: number };
  readonly loadedRssMegabytes: number;
  readonly targets: TargetRow[];
  readonly seconds: number;
}

const rate = (value: number): string => Math.round(value).toLocaleString('en-US');

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
    `- ${report.method.pinning}`,
    '',
    '## Method',
    '',
    '- Data: SQLite files (WAL) seeded with 10 orgs × 1 000 users × 10 posts, and a second file with',
    '  1 000 000 posts for keyset depth; `ANALYZE` and `PRAGMA optimize` after seeding.',
    '- Servers, each its own process, all serving the same responses (checked before timing):',
    '  - **generated**: `generated/app.ts` started by the runtime as `npm start` starts it, compiled to',
    '    JavaScript (every server here runs compiled, from `dist/`);',
    '  - **floor**: `node:http` + `better-sqlite3` + `jose`, hand-written SQL (one window-ranked',
    '    statement for the posts of all parents), GraphQL documents recognised by their text — the',
    '    least work that produces the answer (`bench/servers/floor.ts`);',
    '  - **Express + Prisma**: the REST list written by hand, one `findMany` (`bench/servers/express-prisma.ts`),',
    '    on the same generated Prisma client (query compiler `small` build; the default `fast` build',
    '    measured no faster here);',
    '  - **naive GraphQL**: graphql-js over graphql-http, Prisma resolvers that query once per parent',
    '    (`bench/servers/naive-graphql.ts`).',
    `- Load: autocannon (programmatic), ${report.method.connections} connections, no pipelining. Per scenario a ${report.method.warmup} s`,
    `  warm-up of each variant, then ${report.method.rounds} rounds of ${report.method.seconds} s in which the variants take turns (order rotated`,
    '  each round). Figures are the median over rounds (req/s also min–max); p50/p99 are latency in',
    '  milliseconds; RSS is the serving process after the runs; ×floor divides req/s by the floor of the',
    '  same scenario in the same run.',
    '- The member of the first org is the caller (published posts of the org plus their own drafts);',
    '  the write mix runs as the org admin.',
    '',
    '## Results',
    '',
  ];
  for (const scenario of report.scenarios) {
    lines.push(`### ${scenario.title}`, '', '| variant | req/s (min–max) | ×floor | p50 ms | p99 ms | non-2xx | errors | RSS MB |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const variant of scenario.variants) {
      lines.push(
        `| ${variant.label} | ${rate(variant.requestsPerSecond)} (${rate(variant.min)}–${rate(variant.max)}) | ${variant.ratioToFloor.toFixed(2)} | ${variant.p50} | ${variant.p99} | ${variant.non2xx} | ${variant.errors} | ${variant.rssMegabytes} |`,
      );
    }
    lines.push('');
  }
  lines.push('### SQL statements per request', '', '| request | server | statements |', '|---|---|---:|');
  for (const row of report.statements) lines.push(`| ${row.request} | ${row.server} | ${row.statements} |`);
  lines.push('', '### generate', '', '| case | wall ms per run | stages of the last run (ms) |', '|---|---|---|');
  for (const entry of report.generator) lines.push(`| ${entry.label} | ${entry.runs.join(', ')} | ${entry.stages} |`);
  lines.push(
    '',
    'A change to an entity changes the Prisma schema, and the Prisma client of each database is then',
    'regenerated by the `prisma` CLI, side by side (the `prisma` stage): that CLI spends about a second',
    'loading itself per run, which is what keeps this case above two seconds. Runs that do not change',
    'the Prisma schema never start it.',
  );
  lines.push(
    '',
    '### Resident memory',
    '',
    `Idle (30 s after boot, no request yet): generated ${report.idleRss.generated} MB, floor ${report.idleRss.floor} MB, Express + Prisma ${report.idleRss.expressPrisma} MB, naive GraphQL ${report.idleRss.naive} MB.`,
    `The generated server after every scenario: ${report.loadedRssMegabytes} MB. Every process is compiled JavaScript (\`npm run build\`), as \`npm start\` runs it.`,
    '',
  );
  lines.push(
    '### Observability',
    '',
    'The nested and point-lookup scenarios also time the generated server with metrics on',
    '(`APP_METRICS__ENABLED=true`, scraped by no one) and with tracing on (`APP_OTEL__ENDPOINT` set,',
    'every span sampled and exported over OTLP/HTTP to a sink in the load generator\'s process). Their cost',
    'is the share of req/s they lose against the plain generated server (Targets). Neither writes access',
    'lines (the benchmarked servers log warnings only).',
    '',
  );
  lines.push('## Targets', '', '| target | measured | |', '|---|---|---|');
  for (const target of report.targets) lines.push(`| ${target.target} | ${target.measured} | ${target.met ? 'met' : '**missed**'} |`);
  lines.push('');
  return `${lines.join('\n')}\n`;
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart: one bar per variant, req/s ÷ the floor of its scenario. */
export function renderSvg(report: Report): string {
  const rowHeight = 22;
  const labelWidth = 330;
  const chartWidth = 420;
  const largest = Math.max(1, ...report.scenarios.flatMap((scenario) => scenario.variants.map((variant) => variant.ratioToFloor)));
  const scale = chartWidth / (Math.ceil(largest * 4) / 4);
  const rows: string[] = [];
  let y = 40;
  for (const scenario of report.scenarios) {
    rows.push(`<text x="10" y="${y + 14}" font-weight="bold">${escapeXml(scenario.title.length > 90 ? `${scenario.title.slice(0, 87)}…` : scenario.title)}</text>`);
    y += rowHeight;
    for (const variant of scenario.variants) {
      const width = Math.max(1, variant.ratioToFloor * scale);
      const fill = variant.label.startsWith('generated') ? '#2f6fde' : variant.label.startsWith('floor') ? '#9aa4b2' : '#e08a3c';
      rows.push(
        `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeXml(variant.label)}</text>`,
        `<rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="${rowHeight - 8}" fill="${fill}"/>`,
        `<text x="${(labelWidth + width + 6).toFixed(1)}" y="${y + 15}">${variant.ratioToFloor.toFixed(2)}× (${rate(variant.requestsPerSecond)} req/s)</text>`,
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
