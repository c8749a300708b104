/**
 * Colour for diagnostics on a terminal, and only there (docs/architecture.md §1): on when
 * the stream is a TTY, off when it is piped, when `NO_COLOR` is set (https://no-color.org) or
 * `TERM=dumb`; `FORCE_COLOR` decides over all of these, as Node reads it (`''`, `1`, `2`, `3`,
 * `true` force colour on, anything else off).
 *
 * Plain SGR escape sequences: the five styles below are all the report uses, so no library is
 * needed (node:util `styleText` exists on Node 20.19, but before Node 22.13 it cannot be told which
 * stream it styles for, and decides for stdout while diagnostics go to stderr).
 */

/** The environment variables colour depends on. */
export type ColorEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * Whether to colour text written to `stream`.
 * Takes the stream (its `isTTY`) and the environment (default `process.env`); never throws.
 */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: ColorEnvironment = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ['', '1', '2', '3', 'true'].includes(force);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** A style: wraps text in its escape sequence, or returns it unchanged when colour is off. */
type Style = (text: string) => string;

/** The styles of a report. */
export interface Styles {
  readonly bold: Style;
  readonly dim: Style;
  readonly red: Style;
  readonly yellow: Style;
  readonly cyan: Style;
}

const sgr =
  (open: number, close: number): Style =>
  (text) =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

const plain: Style = (text) => text;

/** The styles to use: escape sequences when `enabled`, identity otherwise. */
export function stylesFor(enabled: boolean): Styles {
  if (!enabled) return { bold: plain, dim: plain, red: plain, yellow: plain, cyan: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}
