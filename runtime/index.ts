/**
 * `resource-service`: what an application's declarations are written with (docs/architecture.md §5,
 * "The package's surface"). Everything an `entities/` file imports comes from here, by the package's
 * name — never by a path into the package, which `exports` does not allow:
 *
 * ```ts
 * import { Entity, Column, PrimaryKey, Authorized, defineAbility, type Page } from 'resource-service';
 * ```
 *
 * - decorators (`@Entity`, `@Resolver`, `@Controller`, `@Authorized`, …): read by `generate`,
 *   inert at run time (docs/behaviour.md §1);
 * - abilities: {@link defineAbility}, {@link Principal} and the types an `@Abilities()` class
 *   implements (docs/behaviour.md §5);
 * - guards and the batch context the application module lists ({@link AuthenticationGuard},
 *   {@link GraphQLAuthorizationModule}, {@link LoaderScope});
 * - pipes ({@link ZodValidationPipe}, {@link PipeTransform}, {@link rejectInput});
 * - results and failures an operation returns ({@link Result}, {@link fail}, {@link ok});
 * - pages ({@link Page}, {@link PageArgs}), the `Int` and `ID` scalars, queues, events and development hooks.
 *
 * Test helpers are `resource-service/testing`; `resource-service/runtime` and
 * `resource-service/transports/*` are for generated code only.
 */
import './instance.js';

export * from './declarations/decorators.js';
export { type PipeTransform, rejectInput, ZodValidationPipe } from './declarations/pipes.js';
export type { ID, Int } from './declarations/scalars.js';
export {
  defineDevHooks,
  type DevHooks,
  type DevPrincipal,
  type DevServer,
  type DevToken,
  type SeedRun,
  type SeedSize,
} from './declarations/dev-hooks.js';
export {
  type AbilityFactory,
  type AbilityRules,
  type AppAbility,
  defineAbility,
  type FieldRefusal,
  isForbiddenField,
  type Principal,
  type WhereCondition,
} from './auth/ability.js';
export { currentPrincipal, runUnscoped } from './auth/context.js';
export {
  AuthenticationGuard,
  type CanActivate,
  type GuardContext,
  GraphQLAuthorizationGuard,
  GraphQLAuthorizationModule,
} from './auth/guards.js';
export { LoaderScope } from './graphql/loaders.js';
export { LIST_CAP, MAX_PAGE_SIZE, type Page, type PageArgs } from './data/keyset.js';
export { newId } from './data/ids.js';
export { fail, type Failure, type FailureCode, FailureError, type InputIssue, ok, type Result, unwrap } from './failures/result.js';
export { EventBus } from './events/bus.js';
export { type JobContext, Queue } from './jobs/queue.js';
export type { TaskContext } from './jobs/schedule.js';
