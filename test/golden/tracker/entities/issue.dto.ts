import { z } from 'zod';
import type { ID } from 'resource-service';

/** A new issue: its reporter is the caller, its workspace the caller's. */
export interface NewIssue {
  /** The project to report it in. */
  projectId: ID;
  /** 1..200 characters. */
  title: string;
  /** Who to give it to, if anyone. */
  assigneeId?: ID;
}

/** Validation of {@link NewIssue}. */
export const NewIssueSchema = z.object({
  projectId: z.uuid(),
  title: z.string().trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters'),
  assigneeId: z.uuid().optional(),
}) satisfies z.core.$ZodType<NewIssue>;

/** An issue at a glance, with its reporter's name and, when the caller may read it, address. */
export interface IssueSummary {
  /** The issue's title. */
  title: string;
  /** `open` or `closed`. */
  state: string;
  /** Who reported it; absent when the caller may not read them. */
  reporterName?: string;
  /** Where to write to them; absent when the caller's grant leaves addresses out. */
  reporterEmail?: string;
}
