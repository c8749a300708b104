import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Version } from 'resource-service';

const READ = 'read';

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

/** Version 1 is written as a number: only that is reported, not the route's @Version('1') as undeclared. */
@Controller({ path: 'notes', version: [1, '2'] })
export class NotesController {
  @Get(':id')
  @Version('1')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** The action is a name, not a literal: reported once, and the route still counts as having a posture. */
  @Get(':id/text')
  @Authorized(READ, Note)
  text(id: string): Promise<string> {
    return Promise.resolve(id);
  }
}

@Module({ providers: [NoteAbilities], controllers: [NotesController] })
export class AppModule {}
