/**
 * What a test server's memory is once V8 has collected its garbage: the server process is started
 * with `--inspect-port=0` ({@link INSPECTABLE}), `SIGUSR1` opens its inspector on a free port, and
 * the inspector's `HeapProfiler.collectGarbage` runs a full collection. RSS right after a flood
 * counts dead answers V8 has not collected yet (it collects when the heap grows, not when an idle
 * server could), so a suite that asks whether the server still holds something collects first.
 */
import WebSocket from 'ws';
import { messageText } from '../../runtime/transports/sockets.js';
import type { TestServer } from './server.js';

/** The environment a server must be started with for {@link collectGarbage} (merged into `env`). */
export const INSPECTABLE: Readonly<Record<string, string>> = {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect-port=0`.trim(),
};

/** The inspector address of each server whose inspector was opened. */
const inspectors = new WeakMap<TestServer, string>();

/** Opens `server`'s inspector (once) and resolves with its WebSocket address. */
async function inspectorOf(server: TestServer): Promise<string> {
  const known = inspectors.get(server);
  if (known !== undefined) return known;
  server.kill('SIGUSR1');
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = /Debugger listening on (ws:\/\/\S+)/.exec(server.stderr())?.[1];
    if (found !== undefined) {
      inspectors.set(server, found);
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server's inspector did not open (was it started with INSPECTABLE?): ${server.stderr()}`);
}

/**
 * Runs a full garbage collection in `server` (started with {@link INSPECTABLE}) and resolves with
 * its `process.memoryUsage()` then, its RSS read 300 ms later, when V8 has handed freed pages back.
 */
export async function collectGarbage(server: TestServer): Promise<NodeJS.MemoryUsage> {
  const inspector = new WebSocket(await inspectorOf(server));
  try {
    await new Promise((resolve, reject) => {
      inspector.once('open', resolve);
      inspector.once('error', reject);
    });
    let next = 0;
    const call = (method: string, params: object = {}): Promise<{ result?: { value?: unknown } }> => {
      const id = ++next;
      return new Promise((resolve) => {
        const listen = (data: WebSocket.RawData): void => {
          const message = JSON.parse(messageText(data)) as { id?: number; result?: { result?: { value?: unknown } } };
          if (message.id !== id) return;
          inspector.off('message', listen);
          resolve(message.result ?? {});
        };
        inspector.on('message', listen);
        inspector.send(JSON.stringify({ id, method, params }));
      });
    };
    await call('HeapProfiler.collectGarbage');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const usage = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())' });
    return JSON.parse(String(usage.result?.value)) as NodeJS.MemoryUsage;
  } finally {
    inspector.close();
  }
}
