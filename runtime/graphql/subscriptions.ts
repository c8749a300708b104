/**
 * Subscription delivery (docs/behaviour.md §4.1): every pushed item is filtered by the subscriber's ability,
 * so a subscriber never receives a row it could not read with a query.
 */
import { canReadRow } from '../auth/ability.js';
import type { RequestContext } from '../auth/context.js';

/**
 * The items of `source` the subscriber (`request`) may read as `entityName`, in order.
 * Closing the returned iterator closes `source`.
 */
export function readableItems<T extends object>(source: AsyncIterableIterator<T>, request: RequestContext, entityName: string): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        const step = await source.next();
        if (step.done || canReadRow(request, entityName, step.value)) return step;
      }
    },
    async return(value?: unknown): Promise<IteratorResult<T>> {
      await source.return?.(value);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
