/**
 * Development hooks (`defineDevHooks`): what `npm run seed` writes and the token and example
 * requests `npm run dev` prints. Optional: without this file `dev` serves an empty database.
 */
import { defineDevHooks, newId } from 'resource-service';
import type { Database } from '../generated/database.js';

/** The development user: the `sub` of the token `dev` prints, and the owner of the seeded notes. */
const DEVELOPER = {
  name: 'Developer',
  sub: '01900000-0000-7000-8000-000000000001',
  org_id: '01900000-0000-7000-8000-000000000002',
  role: 'member',
};

/** `seed --notes <n>` writes notes for the development user; `dev` prints a token for them and two example requests. */
export default defineDevHooks({
  sizes: { notes: { description: 'notes to write for the development user', default: 2 } },
  async seed(database: Database, { sizes, onProgress }) {
    const notes = Array.from({ length: sizes.notes }, (_, index) => ({ id: newId(), ownerId: DEVELOPER.sub, text: `Note ${index + 1}` }));
    await database.note.createMany({ data: notes });
    onProgress(notes.length, notes.length);
    return { notes };
  },
  principals: () => Promise.resolve([DEVELOPER]),
  examples: ({ url, tokens }) =>
    tokens.flatMap(({ variable }) => [
      `curl -s "${url}/notes?first=5" -H "Authorization: Bearer $${variable}"`,
      `curl -s ${url}/graphql -H 'Content-Type: application/json' -H "Authorization: Bearer $${variable}" -d '{"query":"{ notes(first: 5) { id text } }"}'`,
    ]),
});
