/**
 * Subscription delivery (docs/behaviour.md §4.1): every pushed item is filtered by the subscriber's ability,
 * so a subscriber never receives a row it could not read with a query.
 */
import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  Kind,
  type OperationDefinitionNode,
} from 'graphql';
import type { Principal } from '../auth/ability.js';
import type { GraphQLContext } from './context.js';

/**
 * The items of `source` the subscriber (`context`'s caller) may read as `entityName`, in order, each
 * as they may read it (read again under their scope when a read rule names a relation:
 * `RequestLoaders.readable`). Closing the returned iterator closes `source`.
 */
export function readableItems<T extends object>(
  source: AsyncIterableIterator<T>,
  context: GraphQLContext,
  entityName: string,
): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        const step = await source.next();
        if (step.done) return step;
        const readable = (await context.loaders.readable(entityName, context.request, step.value)) as T | null;
        if (readable !== null) return { done: false, value: readable };
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

/**
 * What a subscription sends for the items of `source` (docs/behaviour.md §4.1): what `select` — the
 * subscription's method, given the item and the subscriber's arguments — answers for each, in
 * order; an item it answers `null` or `undefined` for is not sent to this subscriber (its filter:
 * `issueClosed(issue, projectId)` returning `issue.projectId === projectId ? issue : null`).
 * A rejection of `select` ends the subscription with that error. Closing the returned iterator
 * closes `source`.
 */
export function selectedItems<T, R>(
  source: AsyncIterableIterator<T>,
  select: (item: T) => R | null | undefined | PromiseLike<R | null | undefined>,
): AsyncIterableIterator<R> {
  const iterator: AsyncIterableIterator<R> = {
    async next(): Promise<IteratorResult<R>> {
      for (;;) {
        const step = await source.next();
        if (step.done) return { done: true, value: undefined };
        const value = await select(step.value);
        if (value !== null && value !== undefined) return { done: false, value };
      }
    },
    async return(value?: unknown): Promise<IteratorResult<R>> {
      await source.return?.(value);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** An event's executions by shape: what each subscription of that shape is sent (docs/hostile-input.md §16). */
const executions = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

/** A number per document object (documents are cached by text, so one text is one object). */
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;
/** Numbers the subscriptions whose variables could not be written as a key (each its own shape). */
let nextUnshared = 0;

/**
 * The shape of a subscription: its document, operation and variables, and its caller (whose
 * ability filters and masks what it is sent); subscriptions of one shape are sent the same thing.
 */
function shapeOf(args: ExecutionArgs, principal: Principal | undefined): string {
  let id = documentIds.get(args.document);
  if (id === undefined) {
    id = nextDocumentId++;
    documentIds.set(args.document, id);
  }
  const caller = principal ? `${principal.sub}\u0000${principal.org_id}\u0000${principal.role}` : 'anonymous';
  return `${String(id)}\u0000${args.operationName ?? ''}\u0000${variablesKey(args)}\u0000${caller}`;
}

/**
 * The values of the variables the operation declares, as text; the others a client sent are not
 * read by execution and are left out. A value JSON cannot write (nested past the stack, a client's
 * undeclared `[[[…]]]`) is never shared: such a subscription gets a key of its own.
 */
function variablesKey(args: ExecutionArgs): string {
  const operation = args.document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION && (args.operationName == null || definition.name?.value === args.operationName),
  );
  const values = (args.variableValues ?? {}) as Record<string, unknown>;
  // Present or absent as sent: an absent variable takes its default, a null one does not.
  const declared = (operation?.variableDefinitions ?? [])
    .map((definition) => definition.variable.name.value)
    .filter((name) => Object.hasOwn(values, name))
    .map((name) => [name, values[name]]);
  try {
    return JSON.stringify(declared);
  } catch {
    return `unshared ${String(nextUnshared++)}`;
  }
}

/**
 * graphql-js's `subscribe` (docs/behaviour.md §4.1), each event executed once per shape
 * (docs/hostile-input.md §16): the subscriptions of one caller with the same document and
 * variables share the execution of each event — the first to pull it runs `execute` with the event
 * as root value, the others are given its result — where graphql-js executed every event once per
 * subscription (100 identical subscriptions, 100 executions of a 1 MB answer). Resolves with the
 * stream of results, or the result refusing the subscription.
 */
export async function subscribeSharing(
  args: ExecutionArgs,
  principal: Principal | undefined,
  execute: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const events = source[Symbol.asyncIterator]();
  const shape = shapeOf(args, principal);
  const resultOf = (payload: unknown): Promise<ExecutionResult> => {
    if (typeof payload !== 'object' || payload === null) return Promise.resolve(execute({ ...args, rootValue: payload }));
    let byShape = executions.get(payload);
    if (!byShape) {
      byShape = new Map();
      executions.set(payload, byShape);
    }
    let result = byShape.get(shape);
    if (!result) {
      result = Promise.resolve(execute({ ...args, rootValue: payload }));
      byShape.set(shape, result);
    }
    return result;
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next(): Promise<IteratorResult<ExecutionResult>> {
      const step = await events.next();
      if (step.done === true) return { done: true, value: undefined };
      return { done: false, value: await resultOf(step.value) };
    },
    async return(): Promise<IteratorResult<ExecutionResult>> {
      await events.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
