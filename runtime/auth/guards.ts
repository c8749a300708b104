/**
 * Guards (docs/behaviour.md §5.2–§5.4). A guard decides, per GraphQL operation, whether it may run; guards are
 * bound globally (`@UseGuards(…)` on `AppModule`), on a resolver, or on one operation, and the chain
 * of an operation is the union of those scopes — a guard bound at two scopes runs exactly once.
 *
 * Two guards come with the runtime:
 * - {@link AuthenticationGuard}, applied globally: turns the bearer token into the principal
 *   (an invalid token refuses the operation; no token leaves it anonymous);
 * - {@link GraphQLAuthorizationGuard}, applied on resolvers and provided by
 *   {@link GraphQLAuthorizationModule}, which the feature's module imports: seeds the principal and
 *   its ability into the GraphQL context of the operation.
 */
import type { Logger } from 'pino';
import type { AbilityCache } from './ability.js';
import type { Authentication } from './authentication.js';
import type { RequestContext } from './context.js';
import { Module } from '../declarations/decorators.js';
import { FailureError } from '../failures/result.js';

/** What a guard sees of the operation it guards. */
export interface GuardContext {
  /** The transport the operation came by. */
  readonly transport: 'graphql' | 'graphql-ws';
  /** Root fields the operation selects, as `Type.field`. */
  readonly fields: readonly string[];
  /** How reading the bearer token went. */
  readonly authentication: Authentication;
  /** What earlier guards seeded (starts anonymous). */
  readonly seeded: RequestContext;
  /** Seeds the principal and the ability into the operation's context (docs/behaviour.md §5.4). */
  seed(request: RequestContext): void;
}

/** A guard: true lets the operation run; false (or a thrown failure) refuses it. */
export interface CanActivate {
  canActivate(context: GuardContext): boolean | Promise<boolean>;
}

/** The runtime's authentication guard (docs/behaviour.md §5.2), applied globally. */
export class AuthenticationGuard implements CanActivate {
  /** Seeds the principal of a valid token; refuses an invalid one with UNAUTHENTICATED. */
  canActivate(context: GuardContext): boolean {
    const { authentication } = context;
    if (authentication.kind === 'rejected')
      throw new FailureError({ code: 'UNAUTHENTICATED', message: `authentication failed: ${authentication.reason}` });
    if (authentication.kind === 'authenticated') context.seed({ ...context.seeded, principal: authentication.principal });
    return true;
  }
}

/**
 * The GraphQL authorization guard (docs/behaviour.md §5.3, §5.4), applied on resolvers: seeds the ability of the
 * seeded principal, so posture gates, row scope and masking have it. Without it an authorized
 * operation has no ability and is refused (fail closed).
 */
export class GraphQLAuthorizationGuard implements CanActivate {
  constructor(private readonly abilities: AbilityCache) {}

  canActivate(context: GuardContext): boolean {
    const principal = context.seeded.principal;
    if (principal) context.seed({ ...context.seeded, ability: this.abilities.for(principal) });
    return true;
  }
}

/**
 * Provides {@link GraphQLAuthorizationGuard}. A feature module whose resolvers use that guard
 * imports this module; `generate` refuses the guard where the import is missing.
 */
@Module({ providers: [] })
export class GraphQLAuthorizationModule {}

/** The runtime guards, constructed once per process. */
export interface RuntimeGuards {
  readonly authentication: AuthenticationGuard;
  readonly graphqlAuthorization: GraphQLAuthorizationGuard;
}

/** A guard and the name it is declared by (for logs and errors). */
export interface NamedGuard {
  readonly name: string;
  readonly guard: CanActivate;
}

/**
 * Runs a chain of guards once each, in order, for one operation; returns what they seeded — at once
 * when every guard decides at once, else a promise. Throws (or rejects with) the failure a guard
 * throws, or FORBIDDEN naming the guard that returned false.
 */
export function runGuards(
  chain: readonly NamedGuard[],
  start: Omit<GuardContext, 'seed' | 'seeded'> & { readonly seeded: RequestContext },
  logger: Logger,
): RequestContext | Promise<RequestContext> {
  let seeded = start.seeded;
  const seed = (request: RequestContext): void => {
    seeded = request;
  };
  const debug = logger.isLevelEnabled('debug');
  const refuse = (name: string): never => {
    throw new FailureError({ code: 'FORBIDDEN', message: `${name} refused the operation` });
  };
  const from = (index: number): RequestContext | Promise<RequestContext> => {
    for (let at = index; at < chain.length; at++) {
      const { name, guard } = chain[at] as NamedGuard;
      const context: GuardContext = {
        transport: start.transport,
        fields: start.fields,
        authentication: start.authentication,
        seeded,
        seed,
      };
      if (debug) logger.debug({ guard: name, fields: start.fields, transport: start.transport }, `guard ${name} ran`);
      // A guard that decides at once is not awaited: a turn of the microtask queue per guard saved,
      // and a chain of such guards decides before its caller returns.
      const verdict = guard.canActivate(context);
      if (typeof verdict !== 'boolean') return Promise.resolve(verdict).then((allowed) => (allowed ? from(at + 1) : refuse(name)));
      if (!verdict) refuse(name);
    }
    return seeded;
  };
  return from(0);
}
