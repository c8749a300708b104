import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import type { Page } from '../../../../runtime/data/keyset.js';
import type { Int } from '../../../../runtime/declarations/scalars.js';
import { Abilities, ApiOperation, ApiTags, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey } from '../../../../runtime/declarations/decorators.js';

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
