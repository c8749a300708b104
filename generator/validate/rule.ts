/**
 * The shape of a validation rule (docs/architecture.md §1; after graphql-js `validation/rules`): a small
 * function of the resolved model that reports every violation of one invariant. Rules never throw
 * and never stop at the first finding; they read only the resolved model (never the parser's
 * output), and a rule whose input another mistake made unknown stays silent.
 */
import type { Report } from '../diagnostics/diagnostic.js';
import type { ResolvedApp } from '../model/model.js';

/** A rule: checks one invariant of `app`, reporting each violation. */
export type Rule = (app: ResolvedApp, report: Report) => void;
