import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Version } from 'resource-service';

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

@Controller({ path: 'notes', version: ['1', '2'] })
export class NotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  @Get(':id/history')
  @Version('2')
  @Authorized('read', Note)
  history(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

/** One controller per version may share a service: addresses under one version do not collide. */
@Controller({ path: 'notes', version: '3' })
export class NotesV3Controller {
  @Get(':noteId')
  @Authorized('read', Note)
  find(noteId: string): Promise<Note | null> {
    return Promise.resolve(noteId ? null : null);
  }
}

@Module({ providers: [NoteAbilities], controllers: [NotesController, NotesV3Controller], versions: { '1': { deprecated: true, sunset: '2027-06-30' } } })
export class AppModule {}
