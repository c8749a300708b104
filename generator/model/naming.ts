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
  return `APP_CRON__${constantCase(task).replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}
