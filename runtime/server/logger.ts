/**
 * Structured logging with pino (docs/decisions.md §4): JSON lines by default, human-readable when
 * stdout is a terminal or `APP_LOG__FORMAT=pretty`. Database failure details, stack traces and
 * SQL go here and never onto the wire (docs/behaviour.md §7). Every line written while serving a
 * request carries its `requestId` (docs/behaviour.md §12.1).
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { currentContext } from '../auth/context.js';

export type { Logger } from 'pino';

/** Logging settings (from `APP_LOG__*`). */
export interface LogSettings {
  readonly level: string;
  readonly format?: 'json' | 'pretty' | undefined;
}

/**
 * The fields every line gets from where it is written: the `requestId` of the request being served
 * (the ambient context's, runtime/auth/context.ts), so lines written through any logger — the
 * runtime's, a service's, a child of either — carry it, not only those written through a logger
 * made for the request. A field the line names itself wins.
 */
function requestFields(): object {
  const observation = currentContext().observation;
  return observation === undefined ? {} : { requestId: observation.requestId };
}

/**
 * Creates the process logger: pretty in a TTY (or when asked), JSON otherwise; lines written while
 * serving a request carry its `requestId` ({@link requestFields}).
 */
export function createLogger(settings: LogSettings, destination: NodeJS.WritableStream = process.stdout): Logger {
  const usePretty = settings.format === 'pretty' || (settings.format === undefined && Boolean((destination as { isTTY?: boolean }).isTTY));
  const options = { level: settings.level, base: { pid: process.pid }, mixin: requestFields };
  if (usePretty)
    return pino(options, pretty({ colorize: true, sync: true, destination: destination as NodeJS.WritableStream & { fd?: number } }));
  return pino(options, destination);
}
