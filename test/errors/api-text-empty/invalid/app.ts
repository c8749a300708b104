import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import type { Page } from 'resource-service';
import type { Int } from 'resource-service';
import { Abilities, ApiOperation, ApiTags, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey } from 'resource-service';

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

/** Notes the caller wrote. */
@ApiTags('Notes', ' ')
@Controller('notes')
export class NotesController {
  /** One page of the caller's notes. */
  @Get()
  @ApiOperation({ summary: '' })
  @Authorized('read', Note)
  list(first?: Int, after?: string): Promise<Page<Note>> {
    return Promise.resolve({ items: [], has_more: first === 0 && after === '' });
  }

  /** One note by id. */
  @Get(':id')
  @ApiOperation({})
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Module({ providers: [NoteAbilities], controllers: [NotesController] })
export class AppModule {}
