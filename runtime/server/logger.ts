/**
 * Structured logging with pino (docs/decisions.md §4): JSON lines by default, human-readable when
 * stdout is a terminal or `APP_LOG__FORMAT=pretty`. Database failure details, stack traces and
 * SQL go here and never onto the wire (docs/behaviour.md §7).
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** Logging settings (from `APP_LOG__*`). */
export interface LogSettings {
  readonly level: string;
  readonly format?: 'json' | 'pretty' | undefined;
}

/** Creates the process logger: pretty in a TTY (or when asked), JSON otherwise. */
export function createLogger(settings: LogSettings, destination: NodeJS.WritableStream = process.stdout): Logger {
  const usePretty = settings.format === 'pretty' || (settings.format === undefined && Boolean((destination as { isTTY?: boolean }).isTTY));
  const options = { level: settings.level, base: { pid: process.pid } };
  if (usePretty) return pino(options, pretty({ colorize: true, sync: true, destination: destination as NodeJS.WritableStream & { fd?: number } }));
  return pino(options, destination);
}
