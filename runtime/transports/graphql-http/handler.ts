/**
 * POST /graphql (docs/behaviour.md §4.1) through `graphql-http`, the GraphQL-over-HTTP reference
 * implementation: `query`, `variables`, `operationName`, `application/json` and
 * `application/graphql-response+json`; with trusted documents on, `documentId` too, over POST and
 * GET (docs/behaviour.md §4.10). Each operation goes through the engine's preparer (cached
 * parse and validation, limits, guards; runtime/graphql/prepare.ts) and runs on the cached,
 * compiled executor of runtime/graphql/execution.ts; errors carry docs/decisions.md §4 codes. A
 * subscription is refused with where it is served (graphql-ws on the same path).
 */
import type { IncomingMessage } from 'node:http';
import {
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  OperationTypeNode,
} from 'graphql';
import { createHandler, type Handler, parseRequestParams, type Request, type RequestParams, type Response } from 'graphql-http';
import type { Logger } from 'pino';
import { runInContext } from '../../auth/context.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { createErrorFormatter, errorCode, PERSISTED_DOCUMENT_CODES } from '../../graphql/errors.js';
import { executeWithCodes } from '../../graphql/execution.js';
import type { PersistedDocumentRequest, TrustedDocumentsMode } from '../../graphql/persisted.js';
import type { OperationPreparer, PreparedOperation } from '../../graphql/prepare.js';
import type { Observability } from '../../observability/index.js';
import { type OperationLabel, operationLabel } from '../../observability/observation.js';
import { type AnswerBudget, answerTooLarge, jsonBytesWithin, jsonWithin } from '../../http/answer.js';
import type { RequestState } from '../../http/request-state.js';

/** Options of {@link createGraphQLHandler}. */
export interface GraphQLHandlerOptions {
  readonly schema: GraphQLSchema;
  /** The GraphQL path (`APP_GRAPHQL__PATH`), where graphql-ws serves subscriptions too. */
  readonly path: string;
  readonly logger: Logger;
  /** Parses, checks and guards each operation (shared with graphql-ws). */
  readonly preparer: OperationPreparer;
  /** The state of a request the authentication step left: how reading its bearer token went, and its observation. */
  readonly stateOf: (request: IncomingMessage) => RequestState;
  /** Operation durations and outcomes, the operation's span (docs/behaviour.md §12). */
  readonly observability: Observability;
  /**
   * The bytes of JSON an operation's answer may write (`APP_GRAPHQL__MAX_RESPONSE_BYTES`), and what a
   * refusal past them costs its client (docs/hostile-input.md §14).
   */
  readonly answers: AnswerBudget;
  /** `APP_GRAPHQL__TRUSTED_DOCUMENTS`: whether requests may name a persisted document instead of sending a query (docs/behaviour.md §4.10). */
  readonly trustedDocuments: TrustedDocumentsMode;
}

/** What is known of an operation between its preparation and its result. */
interface Timing {
  readonly started: number;
  readonly operation: OperationLabel;
}

/**
 * What a subscription sent over plain HTTP is told (docs/behaviour.md §4.1): where subscriptions are served.
 * graphql-http's own "Subscriptions are not supported" reads as if the server had none.
 */
function subscriptionOverHttpMessage(path: string): string {
  return `Subscriptions are served over WebSocket (graphql-transport-ws) at ${path}; plain HTTP answers queries and mutations`;
}

/** Whether `value` is an async iterable (a subscription's stream, which graphql-http refuses itself). */
function isAsyncIterable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The content type graphql-http answers a request with `accept` (its own negotiation): the first
 * of `application/graphql-response+json` or a JSON type, in UTF-8; undefined when it names neither,
 * which graphql-http answers 406.
 */
export function acceptedType(accept: string | string[] | undefined): string | undefined {
  // graphql-http reads a missing or empty Accept as */*.
  if (accept === undefined || accept === '') return JSON_TYPE;
  const entries = (typeof accept === 'string' ? accept : '*/*').replace(/\s/g, '').toLowerCase().split(',');
  for (const entry of entries) {
    const [mediaType, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset=')) ?? 'charset=utf-8';
    if (mediaType === 'application/graphql-response+json' && charset === 'charset=utf-8')
      return 'application/graphql-response+json; charset=utf-8';
    if (
      (mediaType === 'application/json' || mediaType === 'application/*' || mediaType === '*/*') &&
      (charset === 'charset=utf-8' || charset === 'charset=utf8')
    )
      return JSON_TYPE;
  }
  return undefined;
}

/** The content type of JSON answers, graphql-http's default. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The content type graphql-http answers a request it accepted with (see {@link acceptedType}). */
function answerType(accept: string | string[] | undefined): string {
  return acceptedType(accept) ?? JSON_TYPE;
}

/** The query-string parameters a GraphQL GET is read from. */
const GET_PARAMETERS = ['query', 'documentId', 'operationName', 'variables', 'extensions'] as const;

/**
 * graphql-http's reading of a request's parameters, taking the id of a persisted document too
 * (docs/behaviour.md §4.10): `documentId` (or Apollo's `extensions.persistedQuery`) where the query
 * is absent, in a JSON body or in a GET's query string. The id is handed on beside the parameters
 * graphql-http reads; a request with a query, or with no id, is read exactly as graphql-http reads it.
 */
async function persistedRequestParams(
  request: Request<IncomingMessage, undefined>,
): Promise<(RequestParams & PersistedDocumentRequest) | Response> {
  if (request.method === 'GET') {
    const at = request.url.indexOf('?');
    const search = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
    // A parameter given twice is ambiguous (which one a cache keyed on is not which one ran): refused,
    // as a REST route refuses one (docs/behaviour.md §4.2).
    const repeated = GET_PARAMETERS.find((name) => search.getAll(name).length > 1);
    if (repeated !== undefined) {
      const error = { message: `${repeated} is given more than once; give it once`, extensions: { code: 'BAD_USER_INPUT' } };
      return [
        JSON.stringify({ errors: [error] }),
        { status: 400, statusText: 'Bad Request', headers: { 'content-type': answerType(request.raw.headers.accept) } },
      ];
    }
    if (search.has('query')) return parseRequestParams(request);
    const documentId = search.get('documentId') ?? undefined;
    search.set('query', '');
    const read = await parseRequestParams({ ...request, url: `${at < 0 ? request.url : request.url.slice(0, at)}?${search.toString()}` });
    return isResponse(read) ? read : { ...read, documentId };
  }
  const { body } = request;
  if (request.method !== 'POST' || typeof body !== 'string') return parseRequestParams(request);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    // graphql-http answers it: 400 "Unparsable JSON body".
    return parseRequestParams(request);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return parseRequestParams(request);
  const fields = data as Record<string, unknown>;
  if (fields.query !== undefined && fields.query !== null) return parseRequestParams({ ...request, body: fields });
  const read = await parseRequestParams({ ...request, body: { ...fields, query: '' } });
  return isResponse(read) ? read : { ...read, documentId: fields.documentId };
}

/** Whether `value` is an answer (graphql-http's `Response`: body and init) rather than errors, arguments or a result. */
function isResponse(value: unknown): value is Response {
  return Array.isArray(value) && (typeof value[0] === 'string' || value[0] === null) && typeof value[1] === 'object' && value[1] !== null;
}

/** Whether `errors` refuse a persisted-document request (PERSISTED_DOCUMENT_*): a request error, 400 whatever the media type. */
function refusesPersisted(errors: readonly GraphQLError[]): boolean {
  const code = errors.length === 1 && errors[0] ? errorCode(errors[0]) : undefined;
  return (PERSISTED_DOCUMENT_CODES as readonly (string | undefined)[]).includes(code);
}

/**
 * The parameters of a body in the common form, read as graphql-http reads them (`parseRequestParams`,
 * and {@link persistedRequestParams} with trusted documents on), or undefined for any body graphql-http
 * would refuse or read otherwise: not JSON, not an object, no query (and no document id), or a
 * `query`, `variables`, `operationName` or `extensions` of the wrong type.
 */
function commonParams(text: string, trustedDocuments: TrustedDocumentsMode): (RequestParams & PersistedDocumentRequest) | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { query, variables, operationName, extensions, documentId } = data as Record<string, unknown>;
  const named = query === undefined || query === null;
  if (named ? trustedDocuments === 'off' : typeof query !== 'string') return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  return {
    query: named ? '' : (query as string),
    variables: variables as Record<string, unknown> | null | undefined,
    operationName,
    extensions: extensions as Record<string, unknown> | null | undefined,
    ...(named ? { documentId } : {}),
  };
}

/**
 * graphql-http's serialisation (its `makeResponse`) of what it does not answer 200 plainly: refusals
 * and results with errors, with Error values other than GraphQL errors reduced to their message.
 */
function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error && !(value instanceof GraphQLError) ? { message: value.message } : value;
}

/** The arguments an operation is executed with, its context the operation's. */
type OperationArguments = ExecutionArgs & { contextValue: GraphQLContext };

/** An operation admitted to run: its arguments, its timing, and the extensions its answer carries (its cost). */
interface Admission {
  readonly args: OperationArguments;
  readonly timing: Timing;
  readonly extensions: Record<string, unknown> | undefined;
}

/** What preparing an operation gives: its admission, the errors refusing it, or the answer refusing the request. */
type Admitted = Admission | readonly GraphQLError[] | Response;

/** GraphQL over HTTP: graphql-http's handler for every request, and one pass for the common form. */
export interface GraphQLHttpHandler {
  /** graphql-http's handler: reads any request (method, URL, headers, body text) and gives its answer. */
  readonly handle: Handler<IncomingMessage, undefined>;
  /**
   * The answer to a POST whose body `text` is in the common form (see {@link commonParams}) and whose
   * `Accept` graphql-http accepts, given in one pass through the same steps, for the request whose
   * state the authentication step left (`state`); undefined for any other request, which {@link handle} answers.
   */
  readonly answerCommon: (raw: IncomingMessage, text: string, state: RequestState) => Promise<Response | undefined>;
}

/**
 * GraphQL over HTTP, framework-free: graphql-http's handler, and beside it the same steps in one pass
 * for the common form (docs/decisions.md §6, "GraphQL's common form in one pass"), so the requests
 * every client sends skip graphql-http's reading, negotiation and the promise of each of its steps.
 * Each operation is prepared (cached parse and validation, limits, guards) and then executed inside
 * the ambient context its guards seeded, in the operation's span; its duration, outcome and name are
 * observed (docs/behaviour.md §12). Both give a request the same answer, byte for byte
 * (test/http/direct-routes.test.ts).
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions): GraphQLHttpHandler {
  const { observability } = options;
  const formatError = createErrorFormatter(options.logger);
  /** The admissions of the operations graphql-http's handler runs, by the arguments it hands back. */
  const admissions = new WeakMap<ExecutionArgs, Admission>();

  /** Runs an admitted operation inside the context its guards seeded, in the operation's span. */
  const execute = ({ args, timing }: Admission): Promise<ExecutionResult> | ExecutionResult =>
    observability.inOperationSpan(timing.operation, () => runInContext(args.contextValue.request, () => executeWithCodes(args)));

  /** Prepares the operation of `params`: its admission, or the errors or answer that refuse it. */
  const subscribe = (
    params: RequestParams & PersistedDocumentRequest,
    state: RequestState,
    accept: string | undefined,
  ): Admitted | Promise<Admitted> => {
    const started = performance.now();
    const pending = options.preparer.prepare(params, state.authentication, 'graphql', state.request.observation);
    return pending instanceof Promise
      ? pending.then((prepared) => admit(params, prepared, state, started, accept))
      : admit(params, pending, state, started, accept);
  };

  const admit = (
    params: RequestParams,
    prepared: PreparedOperation,
    state: RequestState,
    started: number,
    accept: string | undefined,
  ): Admitted => {
    const observation = state.request.observation;
    const refused = (operation: OperationDefinitionNode | undefined, codes: readonly (string | undefined)[]): void =>
      observability.operationRefused(
        observation,
        operation && operationLabel(operation),
        params.operationName,
        codes,
        started,
        state.request.principal !== undefined,
      );
    if (prepared.kind === 'refused') {
      refused(prepared.operation, prepared.errors.map(errorCode));
      // No document to run: the request itself is refused (400), as graphql-http refuses one with no query.
      if (refusesPersisted(prepared.errors)) {
        const body = JSON.stringify({ errors: prepared.errors.map((error) => formatError(error)) });
        return [body, { status: 400, statusText: 'Bad Request', headers: { 'content-type': answerType(accept) } }];
      }
      return prepared.errors;
    }
    // The answer graphql-http gives a subscription (an error, status as for any other), saying where to send it.
    if (prepared.operation.operation === OperationTypeNode.SUBSCRIPTION) {
      refused(prepared.operation, []);
      return [new GraphQLError(subscriptionOverHttpMessage(options.path), { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })];
    }
    const operation = operationLabel(prepared.operation);
    if (observation) observation.operation = operation;
    return { args: prepared.args, timing: { started, operation }, extensions: prepared.extensions };
  };

  /**
   * What an executed operation is answered with: its result (graphql-http serialises it), or the
   * answer itself, in `type` (the media type negotiated).
   */
  const finish = (
    admission: Admission,
    result: ExecutionResult,
    state: RequestState,
    type: string,
    raw: IncomingMessage,
  ): ExecutionResult | Response => {
    const { args, timing, extensions: extra } = admission;
    const reported = args.contextValue.loaders.drainReported();
    if (reported.length > 0) result = { ...result, errors: [...(result.errors ?? []), ...reported] };
    const caller = state.request;
    observability.operationFinished(
      caller.observation,
      timing.operation,
      (result.errors ?? []).map(errorCode),
      timing.started,
      caller.principal !== undefined,
    );
    if (options.logger.isLevelEnabled('debug')) {
      const { rows } = args.contextValue.request;
      options.logger.debug(
        { operationName: args.operationName ?? null, cost: extra?.cost, rows: rows?.count },
        'graphql operation finished',
      );
    }
    const answered = extra ? { ...result, extensions: { ...result.extensions, ...extra } } : result;
    if (isAsyncIterable(answered)) return answered;
    // The byte budget counts what is written, errors or not (docs/hostile-input.md §14): an answer
    // past it is never built — counting stops at the budget — and is answered RESPONSE_TOO_LARGE.
    const { maxBytes } = options.answers;
    // graphql-http serialises with a replacer function (for Error values among the errors), which
    // makes JSON.stringify several times slower on a large answer; an answer without errors holds
    // no Error, so it is serialised here, plainly, as graphql-http would answer it (200).
    const text = answered.errors === undefined ? jsonWithin(answered, maxBytes) : undefined;
    if (text !== undefined) return [text, { status: 200, statusText: 'OK', headers: { 'content-type': type } }];
    if (answered.errors !== undefined && jsonBytesWithin(answered, maxBytes) !== undefined) return answered;
    void options.answers.refused(raw);
    return {
      data: null,
      errors: [
        new GraphQLError(answerTooLarge(maxBytes, 'APP_GRAPHQL__MAX_RESPONSE_BYTES').message, {
          extensions: { code: 'RESPONSE_TOO_LARGE' },
        }),
      ],
    };
  };

  /** The admission of arguments graphql-http hands back: every one it runs came from {@link subscribe}. */
  const admissionOf = (args: ExecutionArgs): Admission => {
    const admission = admissions.get(args);
    if (!admission) throw new Error('graphql-http ran an operation this handler did not admit');
    return admission;
  };
  /** graphql-http's `onSubscribe`: an admission is handed back as its arguments. */
  const handOver = (admitted: Admitted): OperationArguments | readonly GraphQLError[] | Response => {
    if (isResponse(admitted) || Array.isArray(admitted)) return admitted as readonly GraphQLError[] | Response;
    const admission = admitted as Admission;
    admissions.set(admission.args, admission);
    return admission.args;
  };

  const handle = createHandler<IncomingMessage, undefined, GraphQLContext>({
    schema: options.schema,
    // Off, requests are read as graphql-http reads them, at no cost.
    ...(options.trustedDocuments === 'off' ? {} : { parseRequestParams: persistedRequestParams }),
    // graphql-http maps errors through it: the index it passes second is no request id.
    formatError: (error) => formatError(error),
    execute: (args) => execute(admissionOf(args)),
    onSubscribe: (request, params) => {
      const admitted = subscribe(params, options.stateOf(request.raw), request.raw.headers.accept);
      return admitted instanceof Promise ? admitted.then(handOver) : handOver(admitted);
    },
    onOperation: (request, args, result) =>
      finish(admissionOf(args), result, options.stateOf(request.raw), answerType(request.raw.headers.accept), request.raw),
  });

  /** graphql-http's answer to errors (`makeResponse`): 200 under `application/json`, else 400. */
  const refusal = (errors: readonly GraphQLError[], type: string): Response => [
    JSON.stringify({ errors: errors.map((error) => formatError(error)) }, errorReplacer),
    type === JSON_TYPE
      ? { status: 200, statusText: 'OK', headers: { 'content-type': type } }
      : { status: 400, statusText: 'Bad Request', headers: { 'content-type': type } },
  ];

  const answerCommon = async (raw: IncomingMessage, text: string, state: RequestState): Promise<Response | undefined> => {
    const type = acceptedType(raw.headers.accept);
    const params = type === undefined ? undefined : commonParams(text, options.trustedDocuments);
    if (type === undefined || params === undefined) return undefined;
    const pending = subscribe(params, state, raw.headers.accept);
    const admitted = pending instanceof Promise ? await pending : pending;
    if (isResponse(admitted)) return admitted;
    if (Array.isArray(admitted)) return refusal(admitted as readonly GraphQLError[], type);
    const admission = admitted as Admission;
    const executing = execute(admission);
    const result = finish(admission, executing instanceof Promise ? await executing : executing, state, type, raw);
    if (isResponse(result)) return result;
    // Unreachable with the preparer's refusal of subscriptions; graphql-http answers an async iterable so.
    if (isAsyncIterable(result)) return refusal([new GraphQLError('Subscriptions are not supported')], type);
    return [
      JSON.stringify(result.errors ? { ...result, errors: result.errors.map((error) => formatError(error)) } : result, errorReplacer),
      { status: 200, statusText: 'OK', headers: { 'content-type': type } },
    ];
  };

  return { handle, answerCommon };
}
