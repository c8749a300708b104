/**
 * The OTLP/HTTP collector the tracing variant of the benchmark exports to (BENCHMARKS.md): it
 * reads each export and answers 200, as a collector would, and counts what it received. It runs in
 * the benchmark's own process, so what the served process pays is the exporter's work only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running sink. */
export interface OtlpSink {
  /** Its base URL (`APP_OTEL__ENDPOINT`). */
  readonly url: string;
  /** Export requests received so far. */
  exports(): number;
  /** Stops listening and drops the exporters' keep-alive connections. */
  close(): Promise<void>;
}

/** Starts a sink on a free loopback port. */
export async function startOtlpSink(): Promise<OtlpSink> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
