import { NoteRepository } from '../generated/repositories/note.repository.js';
import { currentPrincipal, Injectable, type Page, type PageArgs, type Result } from 'resource-service';
import type { Note } from './note.entity.js';

/** The caller's notes. The generated repository applies the caller's ability to every query. */
@Injectable()
export class NoteService {
  constructor(private readonly notes: NoteRepository) {}

  /** One keyset page of the notes the caller may read. */
  list(args: PageArgs): Promise<Page<Note>> {
    return this.notes.page(args);
  }

  /** Writes a note owned by the caller. */
  add(text: string): Promise<Result<Note>> {
    return this.notes.create({ text, ownerId: currentPrincipal().sub });
  }
}
