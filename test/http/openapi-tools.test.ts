/**
 * The served OpenAPI documents as third-party tools read them (docs/behaviour.md §4.4): every
 * document the server serves (`/api-json`, `/api-json/v<version>`) linted by Redocly's
 * `recommended` ruleset and Spectral's `spectral:oas`, and Prism proxying real requests to the live
 * server and checking every answer against the document. One server; each linter runs once over
 * every document; one Prism proxy per document (Prism reads one document per process). The npm
 * packages' own bins run, as a user would run them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The JS file of `bin` in the package of `manifest` (run with this Node, whatever PATH says). */
function binOf(manifest: string, bin: string): string {
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return path.join(path.dirname(manifest), bins[bin] ?? '');
}

/** What the demo serves: the aggregate and each version's document. */
const DOCUMENTS = ['/api-json', '/api-json/v1', '/api-json/v2'] as const;

const REDOCLY = binOf(require.resolve('@redocly/cli/package.json'), 'redocly');
const SPECTRAL = binOf(require.resolve('@stoplight/spectral-cli/package.json'), 'spectral');
const PRISM = binOf(require.resolve('@stoplight/prism-cli/package.json'), 'prism');

/** What a linter writes to stdout, whatever its exit status (non-zero when it finds errors). */
async function reportOf(args: readonly string[]): Promise<string> {
  try {
    return (await run(process.execPath, [...args], { maxBuffer: 16 << 20 })).stdout;
  } catch (error: unknown) {
    if (error !== null && typeof error === 'object' && 'stdout' in error && typeof error.stdout === 'string') return error.stdout;
    throw error;
  }
}

let server: InProcessServer;
let dir: string;
const files = new Map<string, string>();

beforeAll(async () => {
  server = await startInProcessServer({ seed: { orgs: 1, users: 3, posts: 2 } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-tools-'));
  for (const pathname of DOCUMENTS) {
    const response = await fetch(`${server.url}${pathname}`);
    expect(response.status).toBe(200);
    const file = path.join(dir, `${pathname.replace(/\W+/g, '-').replace(/^-/, '')}.json`);
    writeFileSync(file, await response.text());
    files.set(pathname, file);
  }
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('OpenAPI lint over every served document (docs/behaviour.md §4.4)', () => {
  it('Redocly recommended: no error; the only warning is the license the demo package.json does not name (none is chosen yet)', async () => {
    // One JSON report per document, written one after the other.
    const stdout = await reportOf([REDOCLY, 'lint', '--extends=recommended', '--format=json', ...files.values()]);
    const reports = stdout
      .trim()
      .split(/(?<=})\s*(?={\s*"totals")/)
      .map(
        (text) => JSON.parse(text) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string }[] },
      );
    expect(reports).toHaveLength(DOCUMENTS.length);
    for (const report of reports) {
      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.problems.map((problem) => problem.ruleId)).toEqual(['info-license']);
    }
  });

  it('Spectral spectral:oas: no error and no warning', async () => {
    const ruleset = path.join(dir, '.spectral.yaml');
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const stdout = await reportOf([SPECTRAL, 'lint', '--ruleset', ruleset, '--format', 'json', '--quiet', ...files.values()]);
    const results = JSON.parse(stdout) as { code: string; severity: number; source: string }[];
    expect(results).toEqual([]);
  });
});

describe('the YAML documents (docs/behaviour.md §4.4)', () => {
  it('serves each document as YAML at /api-yaml…, equal to the JSON one', async () => {
    for (const pathname of DOCUMENTS) {
      const response = await fetch(`${server.url}${pathname.replace('/api-json', '/api-yaml')}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/yaml/);
      expect(parse(await response.text())).toEqual(JSON.parse(readFileSync(files.get(pathname) ?? '', 'utf8')));
    }
    const missing = await fetch(`${server.url}/api-yaml/v9`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND', versions: ['1', '2'] });
  });
});

/** A Prism proxy in front of the server for one document, and the violations it reports. */
interface Proxy {
  readonly url: string;
  readonly process: ChildProcess;
}

/** A port nothing listens on now (the system's pick for port 0, released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts `prism proxy <file> <server>` on a free port; settles when it listens. */
async function startProxy(file: string): Promise<Proxy> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'proxy', file, server.url, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start: ${output}`)), 30_000);
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/listening on/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child };
}

describe('Prism proxy against the live server (docs/behaviour.md §4.4)', () => {
  it('finds no answer that breaks its document, for every document', async () => {
    const admin = await server.token('admin');
    const viewer = await server.token('viewer');
    const postId = server.seeded.posts[0]?.id ?? '';
    const userId = server.seeded.users[0]?.id ?? '';
    const proxies = await Promise.all([...files.values()].map(async (file) => startProxy(file)));
    try {
      const violations: unknown[] = [];
      let answered = 0;
      for (const [index, pathname] of DOCUMENTS.entries()) {
        const proxy = proxies[index];
        const document = JSON.parse(readFileSync(files.get(pathname) ?? '', 'utf8')) as { paths: Record<string, Record<string, unknown>> };
        for (const [address, item] of Object.entries(document.paths)) {
          for (const method of Object.keys(item)) {
            const concrete = address.replace('{id}', address.includes('users') ? userId : postId);
            const body =
              method === 'post' && address.endsWith('/posts')
                ? { title: 'Through Prism' }
                : method === 'post' && address.endsWith('/comments')
                  ? { postId, body: 'Through Prism' }
                  : method === 'post' && address.endsWith('/users')
                    ? { name: 'Prism', email: `prism-${index}@example.com` }
                    : method === 'post' && address.endsWith('/meta')
                      ? { versions: ['2'] }
                      : method === 'patch'
                        ? { body: 'Edited' }
                        : undefined;
            if (method === 'delete') continue;
            for (const token of [admin, viewer]) {
              const response = await fetch(`${proxy?.url}${concrete}`, {
                method: method.toUpperCase(),
                headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
                ...(body ? { body: JSON.stringify(body) } : {}),
              });
              await response.arrayBuffer();
              answered += 1;
              const header = response.headers.get('sl-violations');
              const found = header ? (JSON.parse(header) as { location: string[] }[]) : [];
              for (const violation of found)
                if (violation.location[0] === 'response')
                  violations.push({ document: pathname, method, address, status: response.status, violation });
            }
          }
        }
      }
      expect(answered).toBeGreaterThan(30);
      expect(violations).toEqual([]);
    } finally {
      for (const proxy of proxies) proxy.process.kill('SIGTERM');
    }
  }, 60_000);
});
