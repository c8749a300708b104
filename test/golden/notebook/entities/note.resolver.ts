import { Args, Authorized, McpTool, Mutation, Public, Query, Resolver, Subscription, UseGuards } from 'resource-service';
import { GraphQLAuthorizationGuard } from 'resource-service';
import type { Page } from 'resource-service';
import { ZodValidationPipe } from 'resource-service';
import type { Result } from 'resource-service';
import type { Int } from 'resource-service';
import { type AddNote, AddNoteSchema } from './note.dto.js';
import { Note } from './note.entity.js';
import { NoteService } from './note.service.js';

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  constructor(private readonly noteService: NoteService) {}

  /** Notes the caller may read. */
  @Query()
  @Authorized('read', Note)
  notes(first?: Int, after?: string): Promise<Page<Note>> {
    return this.noteService.list({ first, after });
  }

  @Query({ deprecationReason: 'use notes' })
  @McpTool({ name: 'notes.ping', title: 'Ping' })
  @Public()
  ping(echo: string | null, times?: Int): string {
    return `${echo ?? 'pong'}${times ?? ''}`;
  }

  @Mutation()
  @McpTool()
  @Authorized('create', Note)
  addNote(@Args(new ZodValidationPipe(AddNoteSchema)) input: AddNote): Promise<Result<Note>> {
    return this.noteService.add(input);
  }

  @Subscription({ topic: 'noteAdded' })
  @Authorized('read', Note)
  noteAdded(note: Note): Note {
    return note;
  }
}
