/**
 * Trusted documents at generate time (docs/behaviour.md §4.10; docs/decisions.md §16): the
 * persisted-document manifest `graphql/documents.json`, `{ "<sha256 hex>": "<document>" }`, holding
 * the default document of every typed-client factory and each document the application lists as a
 * `.graphql` file under `entities/documents/`. Each document is kept as graphql-js `print` writes
 * it, so a client hashing `print(document)` finds it. A listed document that does not parse, defines
 * no operation, or does not validate against the emitted schema fails `generate` as
 * `graphql-document-invalid`, at its `file:line:col`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, type DocumentNode, GraphQLError, Kind, parse, print, validate } from 'graphql';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { GeneratedFile } from './emit/writer.js';
import type { ProjectLayout } from './parse/project.js';
import { DOCUMENTS_PATH } from './paths.js';

/** The rule id of a listed document that is no valid operation document of the schema. */
export const DOCUMENT_RULE = 'graphql-document-invalid';

/** The folder, under the declarations folder, whose `.graphql` files an application lists. */
const LISTED_FOLDER = 'documents';

/** A document an application lists: its file (relative to the project root) and text. */
interface ListedDocument {
  readonly file: string;
  readonly text: string;
}

/** The `.graphql` files under `entities/documents/` (subfolders too), sorted by path. */
export function readListedDocuments(layout: ProjectLayout): ListedDocument[] {
  const root = path.join(layout.entitiesDir, LISTED_FOLDER);
  if (!existsSync(root)) return [];
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.graphql')) files.push(full);
    }
  };
  walk(root);
  return files.map((file) => ({ file: path.relative(layout.root, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }));
}

/** The lowercase hex SHA-256 of a document's text: its key in the manifest. */
function documentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A diagnostic of `file` at the first location of `error` (line 1, column 1 when it has none). */
function diagnosticOf(file: string, error: GraphQLError, fix: string): Diagnostic {
  const location = error.locations?.[0];
  const message = error.message.replace(/^Syntax Error: /, 'syntax error: ');
  return {
    ruleId: DOCUMENT_RULE,
    severity: 'error',
    message: `${message}${/[.?!]$/.test(message) ? '' : '.'} Fix: ${fix}`,
    span: { file, line: location?.line ?? 1, column: location?.column ?? 1 },
  };
}

/**
 * Checks the listed documents against `sdl`: each must parse, define at least one operation and
 * validate (graphql-js's rules). Returns every finding, and the printed text of each valid document.
 */
export function checkListedDocuments(sdl: string, listed: readonly ListedDocument[]): { diagnostics: Diagnostic[]; texts: string[] } {
  const schema = buildSchema(sdl);
  const diagnostics: Diagnostic[] = [];
  const texts: string[] = [];
  for (const { file, text } of listed) {
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      diagnostics.push(diagnosticOf(file, error, 'write the document in GraphQL syntax (one operation, or several with their fragments)'));
      continue;
    }
    if (!document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION)) {
      diagnostics.push(
        diagnosticOf(
          file,
          new GraphQLError('the document defines no operation', { nodes: document.definitions[0] }),
          'add the query, mutation or subscription its fragments are for, or move the fragments into the file of that operation',
        ),
      );
      continue;
    }
    const errors = validate(schema, document);
    for (const error of errors)
      diagnostics.push(diagnosticOf(file, error, 'change the document to what schema.graphql serves, or remove the file'));
    if (errors.length === 0) texts.push(print(document));
  }
  return { diagnostics, texts };
}

/**
 * `graphql/documents.json`: every document of `texts` by the SHA-256 of its text, sorted by hash,
 * one entry per line (deterministic; a document listed twice is one entry).
 */
export function emitDocumentManifest(texts: readonly string[]): GeneratedFile {
  const entries = [...new Map(texts.map((text) => [documentHash(text), text])).entries()].sort(([a], [b]) => a.localeCompare(b));
  return { path: DOCUMENTS_PATH, content: `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n` };
}
