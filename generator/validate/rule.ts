/**
 * The shape of a validation rule (STYLE.md, after graphql-js `validation/rules`): a small
 * function of the model and the mounted application that reports every violation of one
 * invariant. Rules never throw and never stop at the first finding.
 */
import type { Report } from '../diagnostics/diagnostic.js';
import type { Application } from '../model/application.js';
import type { AppModel } from '../model/model.js';

/** What a rule reads. */
export interface RuleContext {
  readonly model: AppModel;
  readonly application: Application;
}

/** A rule: checks one invariant, reporting each violation. */
export type Rule = (context: RuleContext, report: Report) => void;
