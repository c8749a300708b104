import { Abilities, type AbilityFactory, type AppAbility, defineAbility, type Principal } from 'resource-service';

/**
 * Who may do what, per role; the token's `org_id` is the caller's workspace and nothing crosses it.
 *
 * | role   | Person               | Project              | Issue                                   | Comment                                 | Label, and labelling   |
 * |--------|----------------------|----------------------|-----------------------------------------|-----------------------------------------|------------------------|
 * | admin  | all                  | read, create, update | read, create, update, close             | read, create, delete                    | read, create, delete   |
 * | member | read                 | read                 | read; report; close those given to them | read; write                             | read; label issues     |
 * | guest  | read all but `email` | read unarchived ones | read those of unarchived projects       | read all but `writerId`, as their issue | read the public ones   |
 *
 * A guest's issues and comments follow their project's visibility: conditions on a relation
 * (`{ project: { is: … } }`), which every read turns into an `EXISTS` over the project; so do the
 * links between issues and labels (`IssueLabel`), which `Issue.labels` and `Label.issues` read
 * under the caller's scope beside the labels' and the issues' own.
 */
@Abilities()
export class TrackerAbilities implements AbilityFactory {
  for(principal: Principal): AppAbility {
    const inSpace = { workspaceId: principal.org_id };
    return defineAbility(({ can }) => {
      if (principal.role === 'admin' || principal.role === 'member' || principal.role === 'guest')
        can('read', 'Workspace', { id: principal.org_id });
      switch (principal.role) {
        case 'admin':
          can(['read', 'create', 'update', 'delete'], 'Person', inSpace);
          can(['read', 'create', 'update'], 'Project', inSpace);
          can(['read', 'update', 'close'], 'Issue', inSpace);
          can('create', 'Issue', { ...inSpace, reporterId: principal.sub });
          can(['read', 'delete'], 'Comment', inSpace);
          can('create', 'Comment', { ...inSpace, writerId: principal.sub });
          can(['read', 'create', 'delete'], ['Label', 'IssueLabel'], inSpace);
          break;
        case 'member':
          can('read', 'Person', inSpace);
          can('read', 'Project', inSpace);
          can('read', 'Issue', inSpace);
          can('create', 'Issue', { ...inSpace, reporterId: principal.sub });
          can('close', 'Issue', { ...inSpace, assigneeId: principal.sub });
          can('read', 'Comment', inSpace);
          can('create', 'Comment', { ...inSpace, writerId: principal.sub });
          can('read', ['Label', 'IssueLabel'], inSpace);
          can(['create', 'delete'], 'IssueLabel', inSpace);
          break;
        case 'guest':
          can('read', 'Person', ['id', 'workspaceId', 'name'], inSpace);
          can('read', 'Project', { ...inSpace, archived: false });
          can('read', 'Issue', { ...inSpace, project: { is: { archived: false } } });
          can('read', 'Comment', ['id', 'workspaceId', 'issueId', 'text', 'writtenAt'], {
            ...inSpace,
            issue: { is: { project: { is: { archived: false } } } },
          });
          can('read', 'Label', { ...inSpace, internal: false });
          can('read', 'IssueLabel', { ...inSpace, issue: { is: { project: { is: { archived: false } } } } });
          break;
        default:
          break;
      }
    });
  }
}
