/**
 * Printing diagnostics as a compiler does (docs/architecture.md §1; after graphql-js
 * `printLocation` and rustc): `file:line:col severity rule-id: message`, then a code frame whose
 * carets underline the offending token, then related locations — coloured on a terminal
 * (diagnostics/color.ts), plain when piped.
 */
import { colorEnabled, type Styles, stylesFor } from './color.js';
import type { Diagnostic } from './diagnostic.js';

/** Reads a project-relative file's text, or undefined when it cannot be read. */
export type SourceReader = (file: string) => string | undefined;

/** How to print. */
export interface FormatOptions {
  /** Colour the report; default: as {@link colorEnabled} decides for `process.stderr`, where reports go. */
  readonly color?: boolean;
}

/** The severity as printed: `error`, `warning`, or `error (strict)` for a warning strict mode counts as an error. */
function severityOf(diagnostic: Diagnostic): string {
  return diagnostic.strict === true ? `${diagnostic.severity} (strict)` : diagnostic.severity;
}

/** One line `file:line:col severity rule-id: message` (what tests assert); never coloured. */
export function formatHeadline(diagnostic: Diagnostic): string {
  const { span } = diagnostic;
  return `${span.file}:${span.line}:${span.column} ${severityOf(diagnostic)} ${diagnostic.ruleId}: ${diagnostic.message}`;
}

function styledHeadline(diagnostic: Diagnostic, style: Styles): string {
  const { span } = diagnostic;
  const severity = diagnostic.severity === 'error' ? style.red(style.bold(severityOf(diagnostic))) : style.yellow(style.bold('warning'));
  return `${style.bold(`${span.file}:${span.line}:${span.column}`)} ${severity} ${style.dim(diagnostic.ruleId)}: ${style.bold(diagnostic.message)}`;
}

/**
 * The lines around `line` with carets under the `length` characters from `column` (at least one,
 * at most to the end of the line). Takes the file's text and 1-based positions; returns the frame.
 */
export function codeFrame(
  text: string,
  line: number,
  column: number,
  length = 1,
  style: Styles = stylesFor(false),
  caret: (text: string) => string = style.red,
): string {
  const lines = text.split('\n');
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    const source = lines[number - 1] ?? '';
    const marker = number === line ? style.bold('>') : ' ';
    out.push(`${marker} ${style.cyan(`${String(number).padStart(width)} |`)} ${source}`);
    if (number === line) {
      const start = Math.max(0, column - 1);
      const underline = Math.max(1, Math.min(length, source.length - start));
      out.push(`  ${style.cyan(`${' '.repeat(width)} |`)} ${' '.repeat(start)}${caret('^'.repeat(underline))}`);
    }
  }
  return out.join('\n');
}

/**
 * The headline, then one line `  file:line:col note: message` per related location, never
 * coloured: what the error fixtures record (test/errors/), so a wrong related location is caught too.
 */
export function formatPlain(diagnostic: Diagnostic): string[] {
  return [
    formatHeadline(diagnostic),
    ...(diagnostic.related ?? []).map(
      (related) => `  ${related.span.file}:${related.span.line}:${related.span.column} note: ${related.message}`,
    ),
  ];
}

/** A diagnostic with its code frame and related locations, for people. */
export function formatDiagnostic(diagnostic: Diagnostic, read: SourceReader, options: FormatOptions = {}): string {
  const style = stylesFor(options.color ?? colorEnabled(process.stderr));
  const parts = [styledHeadline(diagnostic, style)];
  const { span } = diagnostic;
  const text = read(span.file);
  if (text !== undefined)
    parts.push(codeFrame(text, span.line, span.column, span.length, style, diagnostic.severity === 'error' ? style.red : style.yellow));
  for (const related of diagnostic.related ?? []) {
    parts.push(
      `  ${style.bold(`${related.span.file}:${related.span.line}:${related.span.column}`)} ${style.cyan('note')}: ${related.message}`,
    );
  }
  return parts.join('\n');
}

/**
 * Every diagnostic, then a count line: `2 errors, 1 warning`, which in strict mode also says how
 * many of the errors are warnings it counted as errors (`2 errors, 0 warnings (strict mode counted
 * 1 warning as an error)`). Takes the diagnostics (already sorted), a reader for the code
 * frames, and whether to colour (default: decided for stderr).
 */
export function formatReport(diagnostics: readonly Diagnostic[], read: SourceReader, options: FormatOptions = {}): string {
  const color = options.color ?? colorEnabled(process.stderr);
  const style = stylesFor(color);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const strict = diagnostics.filter((diagnostic) => diagnostic.strict === true).length;
  const counted = strict === 0 ? '' : ` (strict mode counted ${strict === 1 ? '1 warning as an error' : `${strict} warnings as errors`})`;
  const count = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${counted}`;
  return [
    ...diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, read, { color })),
    errors > 0 ? style.red(style.bold(count)) : style.bold(count),
  ].join('\n\n');
}
