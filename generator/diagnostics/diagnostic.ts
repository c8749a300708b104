/**
 * Diagnostics: what a validation rule reports (docs/architecture.md §1 "Diagnostics"). Every build-time error carries a rule
 * id, a `file:line:col` span and a message naming the fix; `related` points at other places
 * involved (the first declaration of a duplicate, for example).
 */
import type { SourceSpan } from '../model/types.js';

/** `error` stops `generate`; `warning` is printed and generation goes on. */
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
