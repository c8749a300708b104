/**
 * The landing answer at `/` (docs/behaviour.md §4.8): what a newcomer who opens the server's address
 * sees instead of a bare 404 — the API's name and the addresses the transports contribute as
 * {@link Entrypoint}s (documents, GraphQL, playground, subscriptions, health, MCP host). JSON by
 * default; a small HTML page of links for a client that prefers `text/html` (a browser).
 *
 * Mounted after every transport, just before the 404 fallback (runtime/http/pipeline.ts), so it
 * answers only what nothing else did: an application's own route at `/`, and every refusal the
 * version router gives there (docs/behaviour.md §9.3), come first. Only `GET` and `HEAD` of `/`
 * itself; every other method and path keeps its 404. Public and cheap: both bodies are built once,
 * at boot, and the request's headers are read only to pick one.
 */
import type { Express, Request, Response } from 'express';
import type { Entrypoint } from '../transports/index.js';

/** The JSON landing answer: `{ name, docs, openapi, openapiYaml, graphql, playground, subscriptions, health, mcp }`, the keys the entrypoints have. */
function landingDocument(name: string, entrypoints: readonly Entrypoint[]): Record<string, string> {
  const document: Record<string, string> = { name };
  for (const entrypoint of entrypoints) if (!(entrypoint.name in document)) document[entrypoint.name] = entrypoint.path;
  return document;
}

/** `text` with the five HTML-significant characters escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The HTML landing page: a title and one line per entrypoint (a link unless it is a WebSocket). */
function landingPage(name: string, entrypoints: readonly Entrypoint[]): string {
  const items = entrypoints.map((entrypoint) => {
    const path = escapeHtml(entrypoint.path);
    const address = entrypoint.scheme === 'websocket' ? `<code>ws(s)://…${path}</code>` : `<a href="${path}">${path}</a>`;
    return `  <li>${escapeHtml(entrypoint.description)}: ${address}</li>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(name)}</title>
</head>
<body>
<h1>${escapeHtml(name)}</h1>
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
}

/** Mounts `GET /` (and `HEAD /`) answering the landing document or page, picked by `Accept` (docs/behaviour.md §4.8). */
export function mountLanding(app: Express, name: string, entrypoints: readonly Entrypoint[]): void {
  const json = JSON.stringify(landingDocument(name, entrypoints));
  const html = landingPage(name, entrypoints);
  app.get('/', (request: Request, response: Response) => {
    response.vary('Accept');
    if (request.accepts(['application/json', 'text/html']) === 'text/html') response.type('html').send(html);
    else response.type('application/json').send(json);
  });
}
