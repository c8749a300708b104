/**
 * The application as its callers reach it: the generated server on a throwaway database, started
 * by `resource-service/testing`, over real HTTP. Run `npm test` (it needs generated/, which
 * `npm run dev` or `npm run generate` writes).
 */
import { startTestServer, type TestServer } from 'resource-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Two signed-in users; the abilities let each read and write only their own notes. */
const ADA = { sub: '01900000-0000-7000-8000-00000000000a', org_id: '01900000-0000-7000-8000-0000000000a0', role: 'member' };
const GRACE = { sub: '01900000-0000-7000-8000-00000000000b', org_id: '01900000-0000-7000-8000-0000000000a0', role: 'member' };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('notes', () => {
  it('are refused to a caller without a token', async () => {
    expect((await server.fetch('/notes')).status).toBe(401);
  });

  it('written over GraphQL are listed over REST and GraphQL, to their owner only', async () => {
    const ada = await server.token(ADA);
    const added = await server.graphql<{ addNote: { id: string; text: string } }>('mutation { addNote(text: "hello") { id text } }', {
      token: ada,
    });
    expect(added.errors).toBeUndefined();
    const note = { id: added.data?.addNote.id, text: 'hello' };

    const rest = await server.fetch('/notes', { token: ada });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual([expect.objectContaining(note)]);
    expect((await server.graphql('{ notes { id text } }', { token: ada })).data).toEqual({ notes: [note] });

    const grace = await server.token(GRACE);
    expect(await (await server.fetch('/notes', { token: grace })).json()).toEqual([]);
  });
});
