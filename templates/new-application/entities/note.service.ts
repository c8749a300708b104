import { NoteRepository } from '../generated/repositories/note.repository.js';
import { currentPrincipal } from '../runtime/auth/context.js';
import { Injectable } from '../runtime/declarations/decorators.js';
import type { Page, PageArgs } from '../runtime/data/keyset.js';
import type { Result } from '../runtime/failures/result.js';
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
