/**
 * Serving a metrics exposition on a port of its own (docs/behaviour.md §12.2): a server's own
 * (runtime/observability/index.ts) or, in a cluster, the primary's aggregate of its workers'
 * (./cluster.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AppConfig } from '../server/config.js';
import { listeningUrl } from '../server/listening-url.js';

/** The path metrics are served at, on their own port or on the main one. */
export const METRICS_PATH = '/metrics';

/** A metrics exposition: the text and its content type. */
export interface Exposition {
  readonly contentType: string;
  readonly text: string;
}

/**
 * Serves `exposition` at `GET /metrics` on the metrics host and port (a cluster primary serves its
 * workers' this way, ./cluster.ts): 404 for any other path, 405 for any other method. Resolves once
 * it listens, with the server and its URL; rejects with the listen error.
 */
export async function serveMetrics(
  exposition: () => Promise<Exposition>,
  config: AppConfig,
  logger: Logger,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`metrics are served at ${METRICS_PATH}\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('GET only\n');
      return;
    }
    exposition().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'could not collect the metrics');
        response.writeHead(503, { 'content-type': 'text/plain' }).end('the metrics could not be collected; try again\n');
      },
    );
  });
  const host = config.metrics.host ?? config.http.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metrics.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${listeningUrl(host, port)}${METRICS_PATH}`;
  logger.info({ metrics: url }, `serving metrics on ${url}`);
  return { server, url };
}
