import { z } from 'zod';
import { type PipeTransform, rejectInput } from 'resource-service';

/**
 * A new post: its author is the caller, its org the caller's.
 *
 * @privateRemarks
 * Input of `createPost` and `POST /posts` (docs/decisions.md §2).
 */
export interface CreatePost {
  /** 1..200 characters. */
  title: string;
  /** At most 10 000 characters; empty when omitted. */
  body?: string;
}

/** Validation pipe schema for {@link CreatePost}. */
export const CreatePostSchema = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters'),
  body: z.string().max(10_000, 'body must be at most 10000 characters').default(''),
}) satisfies z.core.$ZodType<CreatePost>;

/**
 * A custom transform: trims a search term and refuses one shorter than two characters.
 * Used by `searchPosts` to show that a transform keeps the argument's plain type.
 */
export class SearchTermPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const term = value.trim();
    if (term.length < 2) rejectInput('term must be at least 2 characters after trimming', 'term');
    return term;
  }
}
