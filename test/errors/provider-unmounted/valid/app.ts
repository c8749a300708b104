import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@Controller('stats')
export class StatsController {
  @Get()
  @Authorized('read', Note)
  stats(): Promise<Note | null> {
    return Promise.resolve(null);
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class ReportResolver {
  @Query()
  @Authorized('read', Note)
  report(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Module({ imports: [GraphQLAuthorizationModule], providers: [ReportResolver] })
export class ReportsModule {}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule, ReportsModule], controllers: [StatsController], providers: [NoteAbilities] })
export class AppModule {}
