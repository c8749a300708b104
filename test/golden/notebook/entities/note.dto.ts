import { z } from 'zod';
import type { Priority } from './note.entity.js';

/** Input of addNote. */
export interface AddNote {
  notebookId: string;
  text: string;
  priority?: Priority;
}

export const AddNoteSchema = z.object({ notebookId: z.uuid(), text: z.string().min(1), priority: z.enum(['low', 'high']).optional() });
