/**
 * What both dialects' `applyScript` share (docs/decisions.md §11): the savepoint that tells whether a
 * migration's script ended the transaction it runs in, and the error saying how a failed script left
 * the database — rolled back whole, or not — so that `migrate deploy` claims "the database is as it
 * was before it" only when that was checked.
 */
import { DriverAdapterError } from '@prisma/driver-adapter-utils';

/**
 * The savepoint set right after `BEGIN`, released right after the script. A script that ends the
 * transaction itself (`COMMIT`, `END`, `ROLLBACK`) takes the savepoint with it, so `RELEASE SAVEPOINT`
 * or `ROLLBACK TO SAVEPOINT` then fails: that is how the dialect knows. Both databases take the same
 * text.
 */
export const SCRIPT_SAVEPOINT = 'resource_service_migration';

/**
 * How a failed script left the database: `rolled-back`, none of it is there (checked: the
 * transaction was still the one that began, and rolled back); `part-committed`, the script ended the
 * transaction itself, so what ran before that statement is committed; `unknown`, the connection was
 * lost before the outcome could be checked.
 */
export type ScriptOutcome = 'rolled-back' | 'part-committed' | 'unknown';

/** The reason recorded for a script that ended its transaction itself (matched when the record is read back). */
export const ENDED_ITS_TRANSACTION =
  'its script ends the transaction it runs in (a COMMIT, END or ROLLBACK in it), so what ran before that statement may be committed: a migration cannot control its transaction';

/** The reason recorded for a script whose connection was lost before its outcome could be checked. */
export const OUTCOME_UNKNOWN = 'the connection was lost before it could be checked whether the transaction committed';

/** The payload of a `DriverAdapterError` (its constructor's argument). */
type DriverErrorPayload = ConstructorParameters<typeof DriverAdapterError>[0];

/**
 * A migration's script failed; `outcome` says what of it stayed (docs/decisions.md §11). A
 * `DriverAdapterError`, so the schema engine reads its message as the driver's.
 */
export class MigrationScriptError extends DriverAdapterError {
  constructor(
    payload: DriverErrorPayload,
    readonly outcome: ScriptOutcome,
  ) {
    super(payload);
  }
}
