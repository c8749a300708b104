/**
 * The whole rows behind masked copies (docs/behaviour.md §5.5). Kept apart from `ability.ts`, which
 * `resource-service/runtime` re-exports whole, so that no entry of the package hands application
 * code a way to undo a mask: only the runtime's own checks read a masked copy's row.
 */

/** The row each masked copy was made from. */
const originals = new WeakMap<object, object>();

/** Records that `copy` is a masked copy of `original` (runtime/auth/ability.ts `maskRow`). */
export function rememberOriginal(copy: object, original: object): void {
  originals.set(copy, original);
}

/**
 * The whole row a masked copy was made from, or `row` itself when it is no masked copy: for the
 * runtime's own checks — a write's rule evaluated on the stored row, an event's subscribers each
 * masked to their own grant (runtime/events/bus.ts).
 */
export function unmaskedRow<T extends object>(row: T): T {
  return (originals.get(row) as T | undefined) ?? row;
}
