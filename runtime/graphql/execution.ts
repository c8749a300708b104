/**
 * Executing GraphQL documents, for every GraphQL transport (docs/behaviour.md §4.1; docs/hostile-input.md §2):
 * parsed and validated documents are cached per query text, so a repeated operation costs neither
 * again, and a document executed a second time is compiled by graphql-jit; errors carry docs/decisions.md
 * §4 codes. The HTTP handler is runtime/transports/graphql-http/, graphql-ws's runtime/transports/graphql-ws/.
 */
import { execute, type ExecutionArgs, type ExecutionResult, type DocumentNode, GraphQLError, type GraphQLSchema, parse } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { withCode } from './errors.js';
import { nulLiteral } from './inputs.js';
import { type DocumentBounds, type LexicalBounds, measureDocument, scanDocument } from './limits.js';
import { validateDocument } from './validation.js';

/** A parsed document that passed validation, or the errors it produced. */
export type PreparedDocument = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] };

/** Bounds on documents before they are parsed and validated (docs/hostile-input.md §2). */
export interface DocumentCacheOptions extends DocumentBounds, LexicalBounds {
  /** Answer `__schema` and `__type`, and suggest names in refusals (`APP_GRAPHQL__INTROSPECTION`, docs/hostile-input.md §10). */
  readonly introspection: boolean;
}

/**
 * Bytes of heap the document cache may hold, estimated from the texts: a parsed document (nodes,
 * locations, the token list they keep, the compiled executor beside it) weighs about 100 bytes per
 * character of its text (BENCHMARKS.md §"Where the time goes"), so 64 MiB holds about 650 000 characters of queries.
 */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Estimated heap bytes per character of a cached document's text. */
const BYTES_PER_CHARACTER = 120;
/** The longest text whose refusal is remembered. */
const REFUSAL_CACHE_TEXT = 4 * 1024;

/**
 * Parses, bounds and validates documents once per distinct query text. Each step before
 * validation is linear in the text's size: {@link scanDocument} lexes it against the token and
 * nesting bounds before anything parses it, and {@link measureDocument} refuses too many
 * operations, directives, aliases or expanded fields before graphql-js validation runs. The cache
 * is bounded by entries and by the heap its documents take (estimated from their texts, at most a
 * sixteenth of it per document); a refusal is kept only for short texts (refusing again costs less
 * than holding a large text), so distinct documents cannot grow memory without bound.
 */
export class DocumentCache {
  private readonly cache = new LRUCache<string, PreparedDocument>({
    max: 2_000,
    maxSize: CACHE_BYTES,
    sizeCalculation: (_value, query) => (query.length + 64) * BYTES_PER_CHARACTER,
  });

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: DocumentCacheOptions,
  ) {}

  /**
   * The validated document of `query`, or its refusal, parse or validation errors (with codes), or
   * the `BAD_USER_INPUT` of a literal text holding a NUL character (docs/hostile-input.md §17).
   */
  prepare(query: string): PreparedDocument {
    const cached = this.cache.get(query);
    if (cached) return cached;
    const prepared = this.check(query);
    if ('document' in prepared ? (query.length + 64) * BYTES_PER_CHARACTER <= CACHE_BYTES / 16 : query.length <= REFUSAL_CACHE_TEXT)
      this.cache.set(query, prepared);
    return prepared;
  }

  /**
   * The validated document of `query`, or its refusal, without the cache: what {@link prepare}
   * caches, and what the persisted documents are checked with once at boot (runtime/graphql/persisted.ts).
   */
  check(query: string): PreparedDocument {
    let document: DocumentNode;
    try {
      const refused = scanDocument(query, this.options);
      if (refused) return { errors: [refused] };
      document = parse(query);
    } catch (error) {
      return {
        errors: [
          error instanceof GraphQLError
            ? withCode(error, 'GRAPHQL_PARSE_FAILED')
            : new GraphQLError('could not parse the query', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } }),
        ],
      };
    }
    try {
      const refused = measureDocument(document, this.options);
      if (refused) return { errors: [refused] };
      const errors = validateDocument(this.schema, document, this.options.introspection);
      if (errors.length > 0) return { errors: errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')) };
      // A literal text holding a NUL character is the caller's bad input (runtime/graphql/inputs.ts).
      const nul = nulLiteral(document);
      return nul ? { errors: [nul] } : { document };
    } catch {
      // A check that cannot decide refuses (fail closed), e.g. a stack exhausted by nesting.
      return {
        errors: [
          new GraphQLError('the document could not be checked; it is refused', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
        ],
      };
    }
  }
}

/**
 * Compiled executors (graphql-jit) per validated document and operation name: a document executed
 * a second time is compiled into a function that resolves its selection without re-walking the
 * AST (BENCHMARKS.md §"Where the time goes"); its first execution runs on graphql-js. Compiling costs more than executing, so a client
 * sending documents that never repeat (docs/hostile-input.md §2) gets none compiled. `'once'`
 * marks a document executed once; `null` one the compiler refuses (graphql-js runs it).
 */
const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | 'once' | null>>();

function compiledQueryOf(args: ExecutionArgs): CompiledQuery | null {
  let byName = compiled.get(args.document);
  if (!byName) {
    byName = new Map();
    compiled.set(args.document, byName);
  }
  const name = args.operationName ?? '';
  const known = byName.get(name);
  if (known === undefined) {
    byName.set(name, 'once');
    return null;
  }
  if (known !== 'once') return known;
  const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
  const query = isCompiledQuery(result) ? result : null;
  byName.set(name, query);
  return query;
}

/**
 * Executes a prepared operation (compiled when the compiler accepts the document, else
 * graphql-js); tags request errors (variable coercion, docs/behaviour.md §7) as `BAD_USER_INPUT`.
 */
export function executeWithCodes(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const tag = (result: ExecutionResult): ExecutionResult =>
    result.data === undefined && result.errors ? { errors: result.errors.map((error) => withCode(error, 'BAD_USER_INPUT')) } : result;
  const query = compiledQueryOf(args);
  const result = query ? query.query(args.rootValue, args.contextValue, args.variableValues) : execute(args);
  return result instanceof Promise ? result.then(tag) : tag(result);
}
