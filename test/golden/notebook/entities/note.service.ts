import { NoteRepository } from '../generated/repositories/note.repository.js';
import type { SearchIndexJobs } from '../generated/jobs.js';
import { Injectable, InjectQueue } from 'resource-service';
import { EventBus } from 'resource-service';
import type { Queue } from 'resource-service';
import type { Page, PageArgs } from 'resource-service';
import type { Result } from 'resource-service';
import type { AddNote } from './note.dto.js';
import type { Note } from './note.entity.js';

@Injectable()
export class NoteService {
  constructor(
    private readonly notes: NoteRepository,
    private readonly events: EventBus,
    @InjectQueue('search-index') private readonly index: Queue<SearchIndexJobs>,
  ) {}

  list(args: PageArgs): Promise<Page<Note>> {
    return this.notes.page(args);
  }

  async add(input: AddNote): Promise<Result<Note>> {
    const result = await this.notes.create(input);
    if (!result.ok) return result;
    await this.index.add('index-note', { noteId: result.value.id, text: result.value.text });
    this.events.publish('noteAdded', result.value);
    return result;
  }
}
