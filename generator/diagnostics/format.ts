/**
 * Printing diagnostics: `file:line:col severity rule-id: message`, then a code frame with a caret
 * under the column (like graphql-js `printLocation`), then related locations.
 */
import type { Diagnostic } from './diagnostic.js';

/** Reads a project-relative file's text, or undefined when it cannot be read. */
export type SourceReader = (file: string) => string | undefined;

/** One line `file:line:col severity rule-id: message` (what tests assert). */
export function formatHeadline(diagnostic: Diagnostic): string {
  const { span } = diagnostic;
  return `${span.file}:${span.line}:${span.column} ${diagnostic.severity} ${diagnostic.ruleId}: ${diagnostic.message}`;
}

/** The lines around `line` with a caret under `column`. */
export function codeFrame(text: string, line: number, column: number): string {
  const lines = text.split('\n');
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    const marker = number === line ? '>' : ' ';
    out.push(`${marker} ${String(number).padStart(width)} | ${lines[number - 1] ?? ''}`);
    if (number === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}

/** A diagnostic with its code frame and related locations, for people. */
export function formatDiagnostic(diagnostic: Diagnostic, read: SourceReader): string {
  const parts = [formatHeadline(diagnostic)];
  const text = read(diagnostic.span.file);
  if (text !== undefined) parts.push(codeFrame(text, diagnostic.span.line, diagnostic.span.column));
  for (const related of diagnostic.related ?? []) {
    parts.push(`  ${related.span.file}:${related.span.line}:${related.span.column} note: ${related.message}`);
  }
  return parts.join('\n');
}

/** Every diagnostic, then a count line: `2 errors, 1 warning`. */
export function formatReport(diagnostics: readonly Diagnostic[], read: SourceReader): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const count = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  return [...diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, read)), count].join('\n\n');
}
