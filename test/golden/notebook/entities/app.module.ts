import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import { Abilities, McpHost, Module, UseGuards } from '../../../../runtime/declarations/decorators.js';
import { AuthenticationGuard, GraphQLAuthorizationModule } from '../../../../runtime/auth/guards.js';
import { LoaderScope } from '../../../../runtime/graphql/loaders.js';
import { Housekeeping, SearchIndexProcessor } from './housekeeping.js';
import { NoteResolver } from './note.resolver.js';
import { NoteService } from './note.service.js';
import { NotesController } from './notes.controller.js';

@Abilities()
export class NotebookAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      can('read', 'Notebook', { ownerId: principal.sub });
      can(['read', 'create'], 'Note');
    });
  }
}

@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteService, NoteResolver, SearchIndexProcessor, Housekeeping], controllers: [NotesController] })
export class NotesModule {}

/**
 * Notes in notebooks you own.
 *
 * @privateRemarks
 * The MCP host's instructions (docs/behaviour.md §4.6), at a path of its own.
 */
@McpHost({ path: '/assistants/v1/' })
export class NotebookAssistant {}

@UseGuards(AuthenticationGuard)
@Module({ imports: [NotesModule], providers: [NotebookAbilities, LoaderScope, NotebookAssistant] })
export class AppModule {}
