/**
 * The GraphQL context of one operation (docs/behaviour.md §5.4): the request's principal and ability (the
 * ambient context) and how authentication went, so a guarded field can say why it refuses.
 */
import type { Authentication } from '../auth/authentication.js';
import type { RequestContext } from '../auth/context.js';
import type { RequestLoaders } from './loaders.js';

/** Per-operation context handed to every resolver (a type alias so it is a plain record). */
export type GraphQLContext = {
  /** Principal, ability, scope flag (also the ambient AsyncLocalStorage context). */
  readonly request: RequestContext;
  /** The outcome of reading the bearer token. */
  readonly authentication: Authentication;
  /** This operation's relation loaders (docs/behaviour.md §5.10). */
  readonly loaders: RequestLoaders;
};
