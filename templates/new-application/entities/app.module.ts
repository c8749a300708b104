import { AuthenticationGuard, GraphQLAuthorizationModule, LoaderScope, Module, UseGuards } from 'resource-service';
import { AppAbilities } from './abilities.js';
import { NoteResolver } from './note.resolver.js';
import { NoteService } from './note.service.js';
import { NotesController } from './notes.controller.js';

/**
 * The application: what is reachable from `AppModule` is mounted. The authentication guard runs
 * before every GraphQL operation; `LoaderScope` gives relation loaders the caller's ability.
 */
@UseGuards(AuthenticationGuard)
@Module({
  imports: [GraphQLAuthorizationModule],
  providers: [AppAbilities, LoaderScope, NoteService, NoteResolver],
  controllers: [NotesController],
})
export class AppModule {}
