import { Authorized, Controller, Get, type Int, type Page } from 'resource-service';
import { Note } from './note.entity.js';
import { NoteService } from './note.service.js';

/** REST routes for notes: `GET /notes?first=&after=`. */
@Controller('notes')
export class NotesController {
  constructor(private readonly noteService: NoteService) {}

  /** One keyset page of the caller's notes (the next page's cursor in `x-next-cursor`). */
  @Get()
  @Authorized('read', Note)
  list(first?: Int, after?: string): Promise<Page<Note>> {
    return this.noteService.list({ first, after });
  }
}
