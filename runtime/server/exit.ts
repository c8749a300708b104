/**
 * Ending a process without losing its output (README "Commands"). When stdout or stderr is a pipe,
 * Node writes to it asynchronously: what the reader has not taken yet (a pipe holds 64 KiB) waits
 * in the stream, and `process.exit()` drops it. `seed --json | jq` saw the first 80 KiB of 1.7 MB.
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
