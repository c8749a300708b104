import { Abilities, type AbilityFactory, type AppAbility, defineAbility, type Principal } from 'resource-service';

/**
 * Grants per role (docs/decisions.md §3). Conditions are Prisma `where` objects; every rule is
 * confined to the principal's org, so nothing crosses orgs. An unknown role gets no rule and
 * therefore sees nothing (fail closed).
 *
 * | role   | User                                   | Org      | Post                                          | Comment (as its author)                       |
 * |--------|----------------------------------------|----------|-----------------------------------------------|-----------------------------------------------|
 * | admin  | create, read, update, delete (own org) | read own | create, read, update, publish (own org)       | create; read, update body, delete (own org)   |
 * | member | read (all fields, own org)             | read own | read published + own drafts; create; publish own | create; read those on posts they read; update body, delete own |
 * | viewer | read id, orgId, name (own org)         | read own | read published (own org)                      | read all but authorId, on published posts     |
 *
 * A comment is read as its post is: a condition on the `post` relation (`{ post: { is: … } }`)
 * becomes an `EXISTS` over the post in every read (docs/behaviour.md §5.5), so nobody learns of a
 * draft they may not open through its comments. So is a post's filing under a category
 * (`PostCategory`, a join table): every role reads its org's categories; admins manage categories
 * and file posts (create, read, delete PostCategory in their org).
 * Every role reads its own notifications (`userId` is the caller's `sub`); admins read their org's
 * audit records and digests. Nothing grants writing them: the job processor, the listener and the
 * scheduled task that write them run unscoped (docs/behaviour.md §5.9).
 */
@Abilities()
export class AppAbilities implements AbilityFactory {
  for(principal: Principal): AppAbility {
    const inOrg = { orgId: principal.org_id };
    return defineAbility(({ can }) => {
      // Whatever the role: your own notifications, in your own org.
      if (principal.role === 'admin' || principal.role === 'member' || principal.role === 'viewer')
        can('read', 'Notification', { ...inOrg, userId: principal.sub });
      switch (principal.role) {
        case 'admin':
          can(['create', 'read', 'update', 'delete'], 'User', inOrg);
          can('read', 'Org', { id: principal.org_id });
          can(['create', 'read', 'update', 'publish'], 'Post', inOrg);
          can('read', 'AuditRecord', inOrg);
          can('read', 'Digest', inOrg);
          can('create', 'Comment', { ...inOrg, authorId: principal.sub });
          can(['read', 'delete'], 'Comment', inOrg);
          can('update', 'Comment', ['body'], inOrg);
          can(['create', 'read', 'update', 'delete'], 'Category', inOrg);
          can(['create', 'read', 'delete'], 'PostCategory', inOrg);
          break;
        case 'member':
          can('read', 'User', inOrg);
          can('read', 'Org', { id: principal.org_id });
          can('read', 'Post', { ...inOrg, status: 'published' });
          can('read', 'Post', { ...inOrg, authorId: principal.sub });
          can('create', 'Post', { ...inOrg, authorId: principal.sub });
          can('publish', 'Post', { ...inOrg, authorId: principal.sub });
          can('create', 'Comment', { ...inOrg, authorId: principal.sub });
          can('read', 'Comment', { ...inOrg, post: { is: { status: 'published' } } });
          can('read', 'Comment', { ...inOrg, post: { is: { authorId: principal.sub } } });
          can('update', 'Comment', ['body'], { ...inOrg, authorId: principal.sub });
          can('delete', 'Comment', { ...inOrg, authorId: principal.sub });
          can('read', 'Category', inOrg);
          can('read', 'PostCategory', { ...inOrg, post: { is: { status: 'published' } } });
          can('read', 'PostCategory', { ...inOrg, post: { is: { authorId: principal.sub } } });
          break;
        case 'viewer':
          can('read', 'User', ['id', 'orgId', 'name'], inOrg);
          can('read', 'Org', { id: principal.org_id });
          can('read', 'Post', { ...inOrg, status: 'published' });
          can('read', 'Comment', ['id', 'orgId', 'postId', 'body', 'createdAt'], { ...inOrg, post: { is: { status: 'published' } } });
          can('read', 'Category', inOrg);
          can('read', 'PostCategory', { ...inOrg, post: { is: { status: 'published' } } });
          break;
        default:
          break;
      }
    });
  }
}
