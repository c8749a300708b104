/**
 * Primary keys (docs/behaviour.md §2): UUID v7, time-ordered, so keyset order is creation order.
 */
import { v7 as uuidv7 } from 'uuid';

/** A new primary key: a UUID v7, as the repositories give new rows (for seeds and hand-written inserts). */
export function newId(): string {
  return uuidv7();
}
