/**
 * Writing a JSON answer (docs/behaviour.md §4.2, §7): the REST routes' values and problem documents.
 */
import type { ServerResponse } from 'node:http';

/**
 * Answers with `text`, JSON already serialised, as the whole body: `status`, `contentType` and its
 * `Content-Length` in bytes, sent in one write with the headers. (Express's `res.json` turns a
 * body of 1 000 characters or more into a Buffer, which Node then writes apart from the headers;
 * a HEAD request gets the headers only, as Node sends no body for it.)
 */
export function writeJson(response: ServerResponse, status: number, text: string, contentType = 'application/json; charset=utf-8'): void {
  response.statusCode = status;
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
