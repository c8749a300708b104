/**
 * Diagnostics: what a validation rule reports (docs/architecture.md §1 "Diagnostics"). Every build-time error carries a rule
 * id, a `file:line:col` span and a message naming the fix; `related` points at other places
 * involved (the first declaration of a duplicate, for example).
 */
import type { SourceSpan } from '../model/types.js';

/** `error` stops `generate`; `warning` is printed and generation goes on (except in strict mode, {@link countWarningsAsErrors}). */
type Severity = 'error' | 'warning';

/** A related place, shown under the main message. */
interface RelatedLocation {
  readonly message: string;
  readonly span: SourceSpan;
}

/** One finding of a rule. */
export interface Diagnostic {
  /** The rule's id: the file name of the rule under `validate/rules/`, or a rule checked outside the model (`STAGE_RULES`, generator/validate/rule.ts). */
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly span: SourceSpan;
  readonly related?: readonly RelatedLocation[];
  /** A warning that strict mode counts as an error (printed `error (strict)`, {@link countWarningsAsErrors}). */
  readonly strict?: true;
}

/** How a rule reports: collects diagnostics, never throws. */
export type Report = (diagnostic: Omit<Diagnostic, 'ruleId' | 'severity'> & { readonly severity?: Severity }) => void;

/** Orders diagnostics by file, line, column, then rule id (deterministic output). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.span.file.localeCompare(b.span.file) ||
    a.span.line - b.span.line ||
    a.span.column - b.span.column ||
    a.ruleId.localeCompare(b.ruleId) ||
    a.message.localeCompare(b.message)
  );
}

/**
 * Strict mode (docs/guide/development.md "Strict mode"): `diagnostics` with every warning made an
 * error marked `strict`, so that it stops `generate` as an error does and the report says which
 * errors were warnings. Takes the diagnostics a stage found; returns them in the same order.
 */
export function countWarningsAsErrors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((diagnostic) =>
    diagnostic.severity === 'warning' ? { ...diagnostic, severity: 'error', strict: true } : diagnostic,
  );
}
