/**
 * Trusted documents (docs/behaviour.md §4.10; docs/decisions.md §16): with
 * `APP_GRAPHQL__TRUSTED_DOCUMENTS` `allow` or `require`, the server reads the persisted-document
 * manifest `generate` wrote (`graphql/documents.json`, `{ "<sha256 hex>": "<document>" }`) at boot,
 * parses, bounds and validates every document once against the schema, and answers a request naming
 * one by its hash — `documentId: "sha256:<hex>"`, or Apollo's
 * `extensions.persistedQuery.sha256Hash` — without parsing or validating anything. Under `require`
 * a request carrying a query text is refused. Limits, guards and access control still run on
 * every operation (runtime/graphql/prepare.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type DocumentNode, GraphQLError } from 'graphql';
import type { DocumentCache, PreparedDocument } from './execution.js';

/** `APP_GRAPHQL__TRUSTED_DOCUMENTS`: off (default), persisted documents beside query texts, or persisted documents only. */
export type TrustedDocumentsMode = 'off' | 'allow' | 'require';

/** A document id as clients send it: `sha256:` and the lowercase hex SHA-256 of the document's text. */
const DOCUMENT_ID = /^sha256:([0-9a-f]{64})$/;
/** Apollo's `persistedQuery.sha256Hash`: the bare lowercase hex digest. */
const BARE_HASH = /^[0-9a-f]{64}$/;
/** The longest id looked at: anything longer is refused before any pattern runs on it. */
const MAX_ID_LENGTH = 80;

/** The parts of a request that may name a persisted document (graphql-http's parameters, a graphql-ws payload). */
export interface PersistedDocumentRequest {
  /** The GraphQL-over-HTTP persisted documents shape: `"sha256:<hex>"`. */
  readonly documentId?: unknown;
  /** Apollo's shape: `{ persistedQuery: { version: 1, sha256Hash: "<hex>" } }`. */
  readonly extensions?: unknown;
}

/** What a request names: a hash (lowercase hex), or an id in no form the server reads. */
type RequestedDocument = { readonly hash: string } | { readonly invalid: true };

/** The document a request names, or undefined when it names none. */
function requestedDocument(request: PersistedDocumentRequest): RequestedDocument | undefined {
  const invalid = { invalid: true } as const;
  const { documentId, extensions } = request;
  if (documentId !== undefined && documentId !== null) {
    if (typeof documentId !== 'string' || documentId.length > MAX_ID_LENGTH) return invalid;
    const hash = DOCUMENT_ID.exec(documentId)?.[1];
    return hash === undefined ? invalid : { hash };
  }
  if (typeof extensions !== 'object' || extensions === null || !('persistedQuery' in extensions)) return undefined;
  const persisted: unknown = extensions.persistedQuery;
  if (typeof persisted !== 'object' || persisted === null) return invalid;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  if (version !== undefined && version !== 1) return invalid;
  if (typeof sha256Hash !== 'string' || sha256Hash.length > MAX_ID_LENGTH || !BARE_HASH.test(sha256Hash)) return invalid;
  return { hash: sha256Hash };
}

/** The refusal of a request naming a document in no form the server reads, or naming none it knows. */
function notFound(message: string): PreparedDocument {
  return { errors: [new GraphQLError(message, { extensions: { code: 'PERSISTED_DOCUMENT_NOT_FOUND' } })] };
}

/**
 * The documents of one manifest, parsed and validated at boot, by hash; and how requests name them
 * under one {@link TrustedDocumentsMode}.
 */
export class PersistedDocuments {
  private constructor(
    readonly mode: Exclude<TrustedDocumentsMode, 'off'>,
    private readonly documents: ReadonlyMap<string, DocumentNode>,
  ) {}

  /**
   * Reads the manifest at `file` and checks every document with `cache` (the bounds and the
   * validation raw queries get). Throws, naming the file and the document, when the manifest is
   * missing or malformed, a key is not the SHA-256 of its text, or a document is refused: boot fails
   * rather than serve a document it would refuse.
   */
  static load(file: URL | undefined, mode: Exclude<TrustedDocumentsMode, 'off'>, cache: DocumentCache): PersistedDocuments {
    const fix = 'run `npm run generate` (it writes the manifest), or set APP_GRAPHQL__TRUSTED_DOCUMENTS=off';
    if (!file) throw new Error(`APP_GRAPHQL__TRUSTED_DOCUMENTS=${mode}: the application has no persisted-document manifest; ${fix}`);
    const where = fileURLToPath(file);
    let manifest: unknown;
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`APP_GRAPHQL__TRUSTED_DOCUMENTS=${mode}: cannot read ${where} (${(error as Error).message}); ${fix}`, {
        cause: error,
      });
    }
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
      throw new Error(`${where} is not a persisted-document manifest ({ "<sha256 hex>": "<document>" }); ${fix}`);
    const documents = new Map<string, DocumentNode>();
    for (const [hash, text] of Object.entries(manifest)) {
      if (typeof text !== 'string' || !BARE_HASH.test(hash) || createHash('sha256').update(text, 'utf8').digest('hex') !== hash)
        throw new Error(`${where}: the entry ${JSON.stringify(hash.slice(0, 80))} is not a document keyed by its SHA-256; ${fix}`);
      const prepared = cache.check(text);
      if ('errors' in prepared) {
        const reasons = prepared.errors.map((error) => `${error.message} (${String(error.extensions.code)})`).join('; ');
        throw new Error(
          `${where}: the document sha256:${hash} (${operationNames(text)}) is refused by this server: ${reasons}. Regenerate the manifest against this schema (npm run generate), or raise the limit it exceeds`,
        );
      }
      documents.set(hash, prepared.document);
    }
    return new PersistedDocuments(mode, documents);
  }

  /** How many documents the manifest holds. */
  get size(): number {
    return this.documents.size;
  }

  /**
   * The document a request asks for: the persisted one it names, or its query text prepared by
   * `prepareText` (the document cache) where the mode admits query texts; a refusal with a
   * PERSISTED_DOCUMENT_* code otherwise. A request carrying a non-empty query is a query text.
   */
  documentOf(
    request: PersistedDocumentRequest & { readonly query?: unknown },
    prepareText: (query: string) => PreparedDocument,
  ): PreparedDocument {
    const { query } = request;
    if (typeof query === 'string' && query !== '') {
      if (this.mode === 'allow') return prepareText(query);
      return {
        errors: [
          new GraphQLError(
            'this server answers persisted documents only (APP_GRAPHQL__TRUSTED_DOCUMENTS=require): send documentId "sha256:<hex>" of a document of its manifest instead of the query text',
            { extensions: { code: 'PERSISTED_DOCUMENT_REQUIRED' } },
          ),
        ],
      };
    }
    const requested = requestedDocument(request);
    if (requested === undefined) {
      return this.mode === 'allow'
        ? notFound('send documentId ("sha256:<hex>" of a persisted document) or a query')
        : {
            errors: [
              new GraphQLError('send documentId: "sha256:<hex>" of a persisted document of this server', {
                extensions: { code: 'PERSISTED_DOCUMENT_REQUIRED' },
              }),
            ],
          };
    }
    if ('invalid' in requested)
      return notFound(
        'documentId must be "sha256:" and the 64 lowercase hex digits of the document\'s SHA-256 (or extensions.persistedQuery { version: 1, sha256Hash })',
      );
    const document = this.documents.get(requested.hash);
    if (!document)
      return notFound(
        `no persisted document has the id sha256:${requested.hash}; this server answers the documents of its manifest (graphql/documents.json): regenerate the client, or list the document under entities/documents/`,
      );
    return { document };
  }
}

/** The operation names of a document's text, for a boot error. */
function operationNames(text: string): string {
  const names = [...text.matchAll(/\b(query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/g)].map((match) => match[2]);
  return names.length > 0 ? names.join(', ') : 'an anonymous operation';
}
