/**
 * Every identifier, file name and wire name the generator derives comes from here, so one
 * concept has one name everywhere (docs/architecture.md §6 "One decision, one place").
 */

/** `UserService` → `userService`. */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `user` → `User`. */
function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A method name as a GraphQL field name (docs/behaviour.md §4.1): camelCase, `get_user` → `getUser`. */
export function fieldNameOf(methodName: string): string {
  return lowerFirst(methodName.replace(/[_-]+([a-zA-Z0-9])/g, (_match, letter: string) => letter.toUpperCase()));
}

/** `BlogPost` → `blog-post` (file names). */
function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `BlogPost` → `BLOG_POST` (constants). */
export function constantCase(name: string): string {
  return kebabCase(name).replace(/-/g, '_').toUpperCase();
}

/**
 * `AuditRecord` → `audit_record`, `publishedAt` → `published_at` (words of a migration's name,
 * docs/decisions.md §9); anything but letters and digits separates words.
 */
export function snakeCase(name: string): string {
  return kebabCase(name)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The variable holding a provider instance in the container: `UserService` → `userService`. */
export function providerVariable(className: string): string {
  return lowerFirst(className);
}

/** The generated repository class of an entity: `User` → `UserRepository`. */
export function repositoryClass(entity: string): string {
  return `${entity}Repository`;
}

/** The generated repository module of an entity, relative to `generated/`. */
export function repositoryModule(entity: string): string {
  return `repositories/${kebabCase(entity)}.repository.ts`;
}

/** The Prisma client delegate of an entity: `User` → `user`, `BlogPost` → `blogPost`. */
export function prismaDelegate(entity: string): string {
  return lowerFirst(entity);
}

/** The constant listing an entity's wire fields: `User` → `USER_FIELDS`. */
export function fieldsConstant(entity: string): string {
  return `${constantCase(entity)}_FIELDS`;
}

/** The constant giving the kinds of an entity's non-text columns: `Post` → `POST_COLUMN_KINDS`. */
export function columnKindsConstant(entity: string): string {
  return `${constantCase(entity)}_COLUMN_KINDS`;
}

/** The constant telling how a create writes an entity's row: `Post` → `POST_INSERT` (runtime/data/sql-insert.ts). */
export function insertShapeConstant(entity: string): string {
  return `${constantCase(entity)}_INSERT`;
}

/** The constant listing an entity's foreign keys as writes check them: `Comment` → `COMMENT_REFERENCES` (runtime/data/repository.ts). */
export function referencesConstant(entity: string): string {
  return `${constantCase(entity)}_REFERENCES`;
}

/** The constant listing a composite key's columns in key order: `PostTag` → `POST_TAG_KEY` (runtime/data/composite-key-repository.ts). */
export function keyConstant(entity: string): string {
  return `${constantCase(entity)}_KEY`;
}

/** The constant listing an entity's stored columns: `User` → `USER_COLUMNS`. */
export function columnsConstant(entity: string): string {
  return `${constantCase(entity)}_COLUMNS`;
}

/** GraphQL connection type of a has_many relation's child (docs/behaviour.md §2.4). */
export function connectionType(entity: string): string {
  return `${entity}Connection`;
}

/** GraphQL edge type of a connection (docs/behaviour.md §2.4). */
export function edgeType(entity: string): string {
  return `${entity}Edge`;
}

/** The name of a generated route handler: `UsersController.list` → `usersControllerList`. */
export function routeFunction(controller: string, methodName: string): string {
  return `${lowerFirst(controller)}${upperFirst(methodName)}`;
}

/** The constant holding the pipes of one parameter: `createUser` + `input` → `createUserInputPipes`. */
export function pipesConstant(owner: string, methodName: string, parameter: string): string {
  return `${lowerFirst(owner)}${upperFirst(methodName)}${upperFirst(parameter)}Pipes`;
}

/** The Prisma relation name of a belongs_to (unique per pair of models): `Post.author` → `PostAuthor`. */
export function prismaRelationName(entity: string, relation: string): string {
  return `${entity}${upperFirst(relation)}`;
}

/** The Prisma back-relation field on the parent for a belongs_to without a declared has_many. */
export function prismaBackRelationField(child: string, relation: string): string {
  return `${lowerFirst(child)}${upperFirst(relation)}Inverse`;
}

/** The name the generated code imports a database's Prisma client class as: `sqlite` → `SqliteClient`. */
export function prismaClientAlias(database: string): string {
  return `${database.charAt(0).toUpperCase()}${database.slice(1)}Client`;
}

/** The container variable of a queue: `notifications` → `notificationsQueue`, `post-events` → `postEventsQueue`. */
export function queueVariable(queue: string): string {
  return `${fieldNameOf(queue)}Queue`;
}

/** The generated constant holding a queue's job schemas: `notifications` → `NOTIFICATIONS_JOBS`. */
export function queueSchemasConstant(queue: string): string {
  return `${constantCase(fieldNameOf(queue))}_JOBS`;
}

/** The generated type of a queue's job payloads: `notifications` → `NotificationsJobs`. */
export function queueJobsType(queue: string): string {
  return `${upperFirst(fieldNameOf(queue))}Jobs`;
}

/** The setting overriding a scheduled task's schedule (docs/behaviour.md §10.2): `writeDigests` → `APP_CRON__WRITE_DIGESTS`. */
export function cronSetting(task: string): string {
  return `APP_CRON__${constantCase(task)
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;
}

/** The generated class of a resource's operations (docs/behaviour.md §4.7): `Comment` → `CommentResource`. */
export function resourceClass(entity: string): string {
  return `${entity}Resource`;
}

/** The generated module of a resource, relative to `generated/`: `BlogPost` → `resources/blog-post.resource.ts`. */
export function resourceModule(entity: string): string {
  return `resources/${kebabCase(entity)}.resource.ts`;
}

/** The input types of a resource's create and update (docs/behaviour.md §4.7): `CreateCommentInput`, `UpdateCommentInput`. */
export function resourceInputName(entity: string, mode: 'create' | 'update'): string {
  return `${upperFirst(mode)}${entity}Input`;
}

/** The generated constant listing a resource's input columns: `Comment` → `COMMENT_INPUT_COLUMNS`. */
export function inputColumnsConstant(entity: string): string {
  return `${constantCase(entity)}_INPUT_COLUMNS`;
}

/**
 * The typed REST client of one API version, relative to `generated/` (docs/behaviour.md §11):
 * `2` → `client/v2.ts`; an application without versions has one, `client/rest.ts`.
 */
export function restClientModule(version: string | undefined): string {
  return version === undefined ? 'client/rest.ts' : `client/v${version}.ts`;
}

/**
 * The TypeScript name of an API version in client identifiers: `2` → `V2`, `2024-06` → `V2024_06`,
 * `beta` → `VBeta` (version tokens are letters, digits, `.` and `-`: docs/behaviour.md §8).
 */
function versionIdentifier(version: string | undefined): string {
  return version === undefined ? 'Rest' : `V${upperFirst(version.replace(/[^A-Za-z0-9]/g, '_'))}`;
}

/** The factory of a version's REST client: `2` → `createV2Client`, no version → `createRestClient`. */
export function restClientFactory(version: string | undefined): string {
  return `create${versionIdentifier(version)}Client`;
}

/** The type of a version's REST client: `2` → `V2Client`, no version → `RestClient`. */
export function restClientType(version: string | undefined): string {
  return `${versionIdentifier(version)}Client`;
}

/** The root operation types a GraphQL client document can start from. */
export type GraphQLOperationKind = 'query' | 'mutation' | 'subscription';

/** The operation name of a root field's client document: `createPost` → `CreatePost`. */
export function clientOperationName(field: string): string {
  return upperFirst(field);
}

/**
 * The client document factory of a root field (docs/behaviour.md §11): `posts` → `postsQuery`,
 * `createPost` → `createPostMutation`, `postPublished` → `postPublishedSubscription`.
 */
export function clientDocumentFactory(field: string, kind: GraphQLOperationKind): string {
  return `${field}${upperFirst(kind)}`;
}

/** The result type of a root field's client document: `posts` → `PostsQuery`. */
export function clientResultType(field: string, kind: GraphQLOperationKind): string {
  return `${upperFirst(field)}${upperFirst(kind)}`;
}

/** The variables type of a root field's client document: `posts` → `PostsQueryVariables`. */
export function clientVariablesType(field: string, kind: GraphQLOperationKind): string {
  return `${clientResultType(field, kind)}Variables`;
}

/** The constant listing the fields a client document selects of a type by default: `Post` → `POST_SELECTION`. */
export function clientSelectionConstant(type: string): string {
  return `${constantCase(type)}_SELECTION`;
}
