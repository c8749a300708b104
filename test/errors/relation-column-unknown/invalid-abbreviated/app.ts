import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A project. */
@Entity()
export class Project {
  @PrimaryKey()
  id!: string;
}

/** A task of a project: its relation names the column by an abbreviation. */
@Entity()
export class Task {
  @PrimaryKey()
  id!: string;

  @Column()
  projectId!: string;

  @BelongsTo(() => Project, { column: 'projId' })
  project?: Project | null;
}

@Abilities()
export class TaskAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Task', { projectId: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Task)
export class TaskResolver {
  @Query()
  @Authorized('read', Task)
  task(id: string): Promise<Task | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [TaskResolver, TaskAbilities] })
export class AppModule {}
