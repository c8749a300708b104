import { z } from 'zod';
import { Cron, Injectable, OnEvent, Process, Processor } from 'resource-service';
import type { JobContext } from 'resource-service';
import type { TaskContext } from 'resource-service';
import type { Note } from './note.entity.js';

/** The payload of an `index-note` job. */
export const IndexNoteSchema = z.object({ noteId: z.uuid(), text: z.string() });

/** The payload of a `drop-note` job. */
export const DropNoteSchema = z.object({ noteId: z.uuid() });

/** Keeps a search index of notes: a queue whose name has a hyphen, one handler taking the job's context and one not. */
@Processor('search-index')
export class SearchIndexProcessor {
  /** Indexes one note. */
  @Process('index-note', IndexNoteSchema)
  indexNote(payload: z.output<typeof IndexNoteSchema>): void {
    void payload;
  }

  /** Drops one note from the index. */
  @Process('drop-note', DropNoteSchema)
  async dropNote(payload: z.output<typeof DropNoteSchema>, job: JobContext): Promise<void> {
    job.logger.info({ noteId: payload.noteId }, 'dropped');
    await Promise.resolve();
  }
}

/** Scheduled tasks and listeners, with and without their context. */
@Injectable()
export class Housekeeping {
  /** Nightly, at three. */
  @Cron('0 3 * * *')
  async nightly(task: TaskContext): Promise<void> {
    task.logger.info('nightly');
    await Promise.resolve();
  }

  /** Every thirty seconds, under another name. */
  @Cron('*/30 * * * * *', { name: 'heartbeat' })
  pulse(): void {}

  /** Hears every note added in this process. */
  @OnEvent('noteAdded')
  onNoteAdded(note: Note): void {
    void note;
  }

  /** Hears it too, without the payload. */
  @OnEvent('noteAdded')
  count(): void {}
}
