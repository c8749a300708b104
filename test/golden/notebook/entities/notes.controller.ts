import { Authorized, Body, Controller, Get, McpTool, Post, Version } from 'resource-service';
import type { Page } from 'resource-service';
import { ZodValidationPipe } from 'resource-service';
import type { Result } from 'resource-service';
import type { Int } from 'resource-service';
import { type AddNote, AddNoteSchema } from './note.dto.js';
import { Note } from './note.entity.js';
import { NoteService } from './note.service.js';

@Controller({ path: 'notes', version: ['1', '2'] })
export class NotesController {
  constructor(private readonly noteService: NoteService) {}

  @Get()
  @Authorized('read', Note)
  list(first?: Int, after?: string): Promise<Page<Note>> {
    return this.noteService.list({ first, after });
  }

  /** The first notes, whole (no cursor), only under version 2. */
  @Get('top', { pagination: 'none' })
  @McpTool()
  @Version('2')
  @Authorized('read', Note)
  top(limit: Int): Promise<Note[]> {
    return this.noteService.list({ first: limit }).then((page) => page.items);
  }

  @Post()
  @Authorized('create', Note)
  add(@Body(new ZodValidationPipe(AddNoteSchema)) input: AddNote): Promise<Result<Note>> {
    return this.noteService.add(input);
  }
}
