import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { Abilities, McpHost, Module, UseGuards } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { LoaderScope } from 'resource-service';
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
