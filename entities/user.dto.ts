import { z } from 'zod';

/**
 * A new user, who joins the caller's org.
 *
 * @privateRemarks
 * Input of `createUser` and `POST /users` (docs/decisions.md §2).
 */
export interface CreateUser {
  /** 1..100 characters. */
  name: string;
  /** A valid address, unique within the org. */
  email: string;
}

/**
 * Validation pipe schema for {@link CreateUser}. `satisfies` checks it against zod's core type,
 * which compares what it parses to, where the classic `z.ZodType` compares every method, slowly.
 */
export const CreateUserSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters'),
  email: z.email('email must be a valid address').max(320),
}) satisfies z.core.$ZodType<CreateUser>;

/** Input of `updateUser`: both fields optional. */
export interface UpdateUser {
  name?: string;
  email?: string;
}

/** Validation pipe schema for {@link UpdateUser}. */
export const UpdateUserSchema = CreateUserSchema.partial() satisfies z.core.$ZodType<UpdateUser>;
