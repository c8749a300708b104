/**
 * The typed clients callers compile against (docs/behaviour.md §11): a REST client per API version
 * and a GraphQL client, emitted from the OpenAPI documents and the SDL this run emitted. Pure like
 * every emitter (nothing is written), but asynchronous: openapi-typescript's Node API is.
 */
import type { TextCache } from '../../cache.js';
import { SDL_PATH } from '../../paths.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../writer.js';
import { emitGraphQLClient } from './graphql.js';
import { emitRestClients } from './rest.js';

/**
 * The client modules under `client/`, from `files`, the other emitted files (the OpenAPI documents
 * and `schema.graphql` among them). Returns them sorted by path. `cache` keeps openapi-typescript's
 * output by its input (nothing is cached without it).
 */
export async function emitClients(context: EmitContext, files: readonly GeneratedFile[], cache?: TextCache): Promise<GeneratedFile[]> {
  const emitted = new Map(files.map((file) => [file.path, file.content]));
  const sdl = emitted.get(SDL_PATH);
  const graphql = sdl === undefined ? undefined : emitGraphQLClient(context, sdl);
  const clients = [...(await emitRestClients(context, context.app.mounted.versions, emitted, cache)), ...(graphql ? [graphql] : [])];
  return clients.sort((a, b) => a.path.localeCompare(b.path));
}
