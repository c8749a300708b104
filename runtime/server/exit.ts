/**
 * Ending a process without losing its output (README.md "Everyday commands"). When stdout or stderr is a pipe,
 * Node writes to it asynchronously: what the reader has not taken yet (a pipe holds 64 KiB) waits
 * in the stream, and `process.exit()` drops it, so `seed --json | jq` would see only the start of the output.
 */

/**
 * Exits with `code` (default `process.exitCode`) once everything already written to stdout and
 * stderr has been handed to the operating system. Waits as long as the reader takes: a writer on
 * a full pipe waits for its reader, as any command-line tool does. A reader that went away
 * (EPIPE) counts as written: there is no one left to deliver to. Never resolves.
 */
export async function exitWhenWritten(code?: number): Promise<never> {
  await Promise.all([written(process.stdout), written(process.stderr)]);
  // `process.exit(undefined)` would reset the exit code to 0: pass what was set.
  process.exit(code ?? process.exitCode);
}

/** Resolves once `stream` has no write pending (or can take none: closed, or its reader is gone). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    // Writes complete in order, so this empty write's callback runs after every earlier one.
    stream.write('', () => resolve());
  });
}

/** What {@link closeOnSignals} closes: a running server (runtime/server/server.ts's `RunningServer`). */
interface Closable {
  close(): Promise<void>;
  readonly logger: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/**
 * Closes `server` once, on the first of `events` the process receives (signals, or `disconnect`
 * when an IPC parent goes away), then exits once output is written: 0 when the close finished,
 * 1 (logged) when it threw (docs/architecture.md §5). Later events while closing are ignored.
 * `announce` (default true) logs `shutting down` first; the dev loop's server leaves that line to the loop.
 */
export function closeOnSignals(server: Closable, events: readonly (NodeJS.Signals | 'disconnect')[], announce = true): void {
  let stopping = false;
  const stop = (event: NodeJS.Signals | 'disconnect'): void => {
    if (stopping) return;
    stopping = true;
    if (announce) server.logger.info({ signal: event }, 'shutting down');
    server.close().then(
      () => exitWhenWritten(0),
      (error: unknown) => {
        server.logger.error({ err: error }, 'shutdown failed');
        return exitWhenWritten(1);
      },
    );
  };
  for (const event of events) process.on(event, () => stop(event));
}
