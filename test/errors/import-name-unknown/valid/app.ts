import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Module, PrimaryKey } from 'resource-service';
import { Controller, Get, Version } from './routing.js';

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

@Module({ providers: [NoteAbilities], controllers: [NotesController] })
export class AppModule {}
