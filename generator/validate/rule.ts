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

/**
 * The rules checked outside the resolved model, by id, each with the module that checks it: they
 * read the TypeScript checker, the committed migration folders, a new migration against the
 * development database, or the application's GraphQL documents against the emitted schema (docs/behaviour.md §7; docs/decisions.md §11), so they run in their stage
 * of `generate` rather than in `validate`. Each has its fixtures under `test/errors/<rule-id>/`
 * like the rules of `RULES` (generator/validate/index.ts).
 */
export const STAGE_RULES = {
  'type-error': 'generator/typecheck.ts',
  'migration-drift': 'generator/migration-drift.ts',
  'migration-data-loss': 'generator/migration-review.ts',
  'migration-unexecutable': 'generator/migration-review.ts',
  'graphql-document-invalid': 'generator/documents.ts',
} as const;

/** The id of a rule checked outside the resolved model ({@link STAGE_RULES}). */
export type StageRuleId = keyof typeof STAGE_RULES;
