import {
  Authorized,
  GraphQLAuthorizationGuard,
  type Int,
  Mutation,
  type Page,
  Query,
  Resolver,
  type Result,
  UseGuards,
} from 'resource-service';
import { Note } from './note.entity.js';
import { NoteService } from './note.service.js';

/** GraphQL operations on notes: `notes(first, after)` and `addNote(text)`. */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  constructor(private readonly noteService: NoteService) {}

  /** One keyset page of the caller's notes. */
  @Query()
  @Authorized('read', Note)
  notes(first?: Int, after?: string): Promise<Page<Note>> {
    return this.noteService.list({ first, after });
  }

  /** Writes a note owned by the caller. */
  @Mutation()
  @Authorized('create', Note)
  addNote(text: string): Promise<Result<Note>> {
    return this.noteService.add(text);
  }
}
