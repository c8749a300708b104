import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Cron, Entity, Module, PrimaryKey, Process, Processor, Query, Resolver, UseGuards } from 'resource-service';

const isUnique = true;

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column({ unique: isUnique })
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

/** A job's schema is an exported zod schema, named; a cron expression is a string literal. */
@Processor('emails')
export class EmailProcessor {
  @Process('welcome', { userId: 'string' })
  welcome(payload: unknown): void {
    void payload;
  }

  @Cron(3600)
  hourly(): void {}
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, EmailProcessor] })
export class AppModule {}
