/**
 * MCP tools (docs/behaviour.md §4.6): what the generated `mcp.ts` declares for each tool, the
 * JSON Schema of its input (from the zod schema of a parameter's `ZodValidationPipe`, else from
 * the parameter's type as REST bodies are checked), which tools a caller is shown, and running a
 * call — posture gate, argument checks, pipes, the method, masking — into a tool result.
 *
 * Every failure of a call is a tool result with `isError` (docs/behaviour.md §4.6: a refusal, a bad
 * argument or a failed operation is something the model reads and can act on); only an unknown tool
 * is a JSON-RPC error (invalid params), as the protocol has it. A call never throws anything else.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z, type ZodType } from 'zod';
import { canOnType, FieldRefusal } from '../../auth/ability.js';
import { jsonWithin } from '../../http/answer.js';
import type { Authentication } from '../../auth/authentication.js';
import { type RequestContext, RowBudget, runInContext } from '../../auth/context.js';
import { authorize } from '../../auth/posture.js';
import { clampPageSize, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MIN_PAGE_SIZE, parseCursor } from '../../data/keyset.js';
import { nulIssues } from '../../data/text-input.js';
import { applyPipes, type PipeTransform } from '../../declarations/pipes.js';
import { INT_MAX, INT_MIN } from '../../declarations/scalars.js';
import { classifyError, INTERNAL_ERROR_MESSAGE } from '../../failures/errors.js';
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../../failures/result.js';
import { coerceInput, type InputFieldType } from '../../http/inputs.js';

/** How a tool reads one parameter from `arguments`: by its type, or as a keyset page's size or cursor. */
export type McpParameterBinding = 'value' | 'pageSize' | 'cursor';

/** One parameter of a tool, as generated: a property of its input schema. */
export interface McpToolParameter {
  readonly name: string;
  /** Its type, checked as REST bodies are (runtime/http/inputs.ts); `nullable` when `arguments` may leave it out. */
  readonly field: InputFieldType;
  readonly binding: McpParameterBinding;
  /** The zod schema of its `ZodValidationPipe`: the input schema describes the parameter with it. */
  readonly schema?: ZodType;
  /** Its pipes, run after the type check, in order. */
  readonly pipes: readonly PipeTransform[];
}

/** A tool's access posture (docs/behaviour.md §5): ungated, or gated on an action on an entity. */
export type McpToolPosture =
  { readonly kind: 'public' } | { readonly kind: 'authorized'; readonly action: string; readonly subject: string };

/**
 * What a successful call of a tool answers (docs/behaviour.md §4.6), as generated from the schemas
 * the OpenAPI documents describe responses with.
 */
export interface McpToolOutput {
  /** The tool's `outputSchema`: the JSON Schema of its `structuredContent`, an object at its root. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Whether the value is answered as `{ "result": value }` (a value that is not an object: a list, a scalar). */
  readonly wrapped: boolean;
  /** The entity it answers rows of, named when the call finds nothing. */
  readonly entity?: string;
}

/** One tool, as generated. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title?: string;
  /** What callers read: the operation's docstring without its `@privateRemarks`. */
  readonly description?: string;
  /** A query or a GET route: the tool only reads (`readOnlyHint`). */
  readonly readOnly: boolean;
  readonly posture: McpToolPosture;
  /** What it answers; absent for an operation without a value (its calls answer the text `null`). */
  readonly output?: McpToolOutput;
  readonly parameters: readonly McpToolParameter[];
  /**
   * Runs the operation with the checked and piped arguments, by parameter name, and returns its
   * value unwrapped from a `Result` and masked for `request` (authorized tools), or throws a failure.
   */
  readonly invoke: (args: Readonly<Record<string, unknown>>, request: RequestContext) => unknown;
}

/** The MCP host of an application, as generated (`generated/mcp.ts`). */
export interface McpHostDefinition {
  /** The name the host gives clients (`serverInfo.name`). */
  readonly name: string;
  /** Where it is mounted (`/mcp`, or the `@McpHost({ path })`). */
  readonly path: string;
  /** What the host tells clients when they connect: the `@McpHost()` class's docstring, as callers read it. */
  readonly instructions?: string;
  readonly tools: readonly McpToolDefinition[];
}

/** Who is calling, as the host hands it to a tool call. */
export interface McpCaller {
  readonly request: RequestContext;
  readonly authentication: Authentication;
  /**
   * What the calls of one HTTP request may still answer, in bytes of result JSON, and the calls
   * queued behind each other so the budget is decided call by call (docs/hostile-input.md §13);
   * absent: unbounded.
   */
  readonly answer?: { remaining: number; queue: Promise<unknown> };
  /** Told once a call's result is refused past the budget, so its client is charged the refusal (docs/hostile-input.md §14); absent: nothing. */
  readonly refused?: () => void;
}

/** A JSON Schema object, as written into a tool's `inputSchema`. */
type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a value of `type` (not null, not a list). */
function typeSchema(type: InputFieldType['type']): JsonSchema {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'ID':
        case 'String':
          return { type: 'string' };
        case 'Int':
          return { type: 'integer', minimum: INT_MIN, maximum: INT_MAX };
        case 'Float':
          return { type: 'number' };
        case 'Boolean':
          return { type: 'boolean' };
        case 'DateTime':
          return { type: 'string', format: 'date-time' };
      }
      break;
    case 'enum':
      return { type: 'string', enum: [...type.values] };
    case 'input': {
      const entries = Object.entries(type.fields);
      const required = entries.filter(([, field]) => !field.nullable).map(([name]) => name);
      return {
        type: 'object',
        properties: Object.fromEntries(entries.map(([name, field]) => [name, fieldSchema(field)])),
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      };
    }
  }
}

/** The JSON Schema of a field: its type, in a list when it is one, `null` allowed when it is nullable. */
function fieldSchema(field: InputFieldType): JsonSchema {
  const schema = field.list ? { type: 'array', items: typeSchema(field.type) } : typeSchema(field.type);
  return field.nullable ? { anyOf: [schema, { type: 'null' }] } : schema;
}

/** The JSON Schema of one parameter (not null: leaving it out is how `arguments` says "none"). */
function parameterSchema(parameter: McpToolParameter): JsonSchema {
  switch (parameter.binding) {
    case 'pageSize':
      return { type: 'integer', description: `Page size, ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` };
    case 'cursor':
      return { type: 'string', description: 'The last id of the previous page; leave it out for the first page.' };
    case 'value':
      break;
  }
  if (parameter.schema) {
    try {
      // What the pipe accepts; a part JSON Schema cannot say (a transform) is left open rather than refused at boot.
      // An object without a catch-all takes no other property: the type check refuses unknown fields first.
      const written = z.toJSONSchema(parameter.schema, {
        io: 'input',
        unrepresentable: 'any',
        override: ({ zodSchema, jsonSchema }) => {
          const def = zodSchema._zod.def;
          if (def.type === 'object' && !('catchall' in def && def.catchall !== undefined) && jsonSchema.additionalProperties === undefined)
            jsonSchema.additionalProperties = false;
        },
      }) as JsonSchema;
      const { $schema: _dialect, ...schema } = written;
      return schema;
    } catch {
      // A schema zod cannot write at all (a cycle it cannot name): the parameter's type still describes it.
    }
  }
  return fieldSchema({ ...parameter.field, nullable: false });
}

/**
 * The `structuredContent` of a failed call, on every tool (see {@link errorResult}): one of the
 * shapes a tool's `outputSchema` allows, since clients check an error's `structuredContent` against it too.
 */
const TOOL_ERROR_SCHEMA = {
  type: 'object',
  description: 'A failed call (isError): its code and message, the field at fault and every issue of bad arguments.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        field: { type: 'string' },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, message: { type: 'string' } },
            required: ['path', 'message'],
            additionalProperties: false,
          },
        },
      },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
} as const;

/**
 * The `outputSchema` of a tool answering `output`: its value's schema, or a failed call's
 * ({@link TOOL_ERROR_SCHEMA}), the named schemas they share under `$defs` at the root.
 */
function outputSchema(output: McpToolOutput): Tool['inputSchema'] {
  const { $defs: definitions, ...value } = output.schema;
  return { type: 'object', anyOf: [value, TOOL_ERROR_SCHEMA], ...(definitions === undefined ? {} : { $defs: definitions }) };
}

/**
 * The tool as `tools/list` describes it: name, title, description, the JSON Schema of its
 * `arguments` (an object with one property per parameter, those that may not be left out
 * `required`, no other property), the JSON Schema of its `structuredContent` when it answers a
 * value (that value's, or a failed call's), and its `readOnlyHint`.
 */
export function describeTool(tool: McpToolDefinition): Tool {
  const required = tool.parameters.filter((parameter) => !parameter.field.nullable).map((parameter) => parameter.name);
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(tool.parameters.map((parameter) => [parameter.name, parameterSchema(parameter)])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
    ...(tool.output ? { outputSchema: outputSchema(tool.output) } : {}),
    annotations: { readOnlyHint: tool.readOnly },
  };
}

/**
 * Whether `caller` is shown `tool` (docs/behaviour.md §4.6): a public tool always; an authorized one
 * when the caller is signed in and their ability grants the tool's action on its entity for some
 * row — what the posture gate checks first, so a tool left out could only be refused.
 */
export function canSee(tool: McpToolDefinition, caller: McpCaller): boolean {
  return (
    tool.posture.kind === 'public' ||
    (caller.request.principal !== undefined && canOnType(caller.request.ability, tool.posture.action, tool.posture.subject))
  );
}

/**
 * The arguments the operation receives: every property of `args` checked against its parameter's
 * type (an unknown property, a mistyped one or a text holding a NUL character is an issue, all of
 * them reported at once), then a
 * page size clamped and a cursor parsed as REST lists do, then each parameter's pipes.
 * Throws `BAD_USER_INPUT` (a {@link FailureError}) listing every issue, or what a pipe throws.
 */
async function checkedArguments(tool: McpToolDefinition, args: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
  const issues: InputIssue[] = [];
  const known = new Set(tool.parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(args)) if (!known.has(name)) issues.push({ path: name, message: `is not a parameter of ${tool.name}` });
  // A NUL in any text of any argument, as REST refuses one in a body (docs/hostile-input.md §17).
  for (const [name, value] of Object.entries(args)) issues.push(...nulIssues(value, name));
  const checked: Record<string, unknown> = {};
  for (const parameter of tool.parameters) {
    try {
      const value = coerceInput(parameter.field, args[parameter.name], parameter.name);
      checked[parameter.name] =
        parameter.binding === 'pageSize'
          ? clampPageSize(value as number | null | undefined)
          : parameter.binding === 'cursor'
            ? parseCursor(value)
            : (value ?? undefined);
    } catch (error) {
      if (!(error instanceof FailureError)) throw error;
      issues.push(...(error.failure.issues ?? [{ path: parameter.name, message: error.failure.message }]));
    }
  }
  if (issues.length > 0) {
    throw new FailureError({ code: 'BAD_USER_INPUT', message: `invalid arguments: ${issueSummary(issues)}`, issues: listedIssues(issues) });
  }
  for (const parameter of tool.parameters) {
    if (parameter.pipes.length > 0) checked[parameter.name] = await applyPipes(checked[parameter.name], parameter.pipes);
  }
  return checked;
}

/** A tool result and the bytes of its JSON, which the request's budget is charged. */
interface SizedResult {
  readonly result: CallToolResult;
  readonly bytes: number;
  /** The value was refused past the budget: the request's budget is spent (docs/hostile-input.md §14). */
  readonly overBudget?: true;
}

/** `result` with the bytes of its JSON. */
function sized(result: CallToolResult): SizedResult {
  return { result, bytes: Buffer.byteLength(JSON.stringify(result)) };
}

/** Bytes of a value result's envelope besides its two copies of the value's JSON (`{"content":[{"type":"text","text":…}],"structuredContent":…}` and the escaping of the text copy's quotes, counted generously). */
const RESULT_ENVELOPE_BYTES = 64;

/**
 * The value a call of `tool` returned as its result (docs/behaviour.md §4.6; docs/decisions.md,
 * "MCP tool output"): `structuredContent` conforming to the tool's `outputSchema` (the value, or
 * `{ result: value }` when it is wrapped), and the same JSON as text for clients that read only text
 * (the protocol's backwards compatibility) — both counted against `maxBytes`, past which the result
 * is a `RESPONSE_TOO_LARGE` error instead. No value (null) from a tool that answers one is
 * `NOT_FOUND`, as REST's 404; a tool without a value answers the text `null`.
 */
function valueResult(tool: McpToolDefinition, value: unknown, maxBytes: number): SizedResult {
  const { output } = tool;
  if (!output) return sized({ content: [{ type: 'text', text: 'null' }] });
  // A value that is only a field the caller's grant excludes is that refusal (docs/behaviour.md §2.1).
  if (value instanceof FieldRefusal) return sized(errorResult('FORBIDDEN', value.message, { field: value.field }));
  if (value === null || value === undefined) {
    const message =
      output.entity === undefined
        ? 'nothing was found for these arguments'
        : `no ${output.entity} was found for these arguments: it does not exist, or you may not read it`;
    return sized(errorResult('NOT_FOUND', message));
  }
  const structuredContent = (output.wrapped ? { result: value } : value) as Record<string, unknown>;
  // The result holds the value's JSON twice — as text (its quotes and backslashes escaped again) and
  // structured — so the value may write about half the budget; counting stops there, and no text
  // past it is built (docs/hostile-input.md §13, §14).
  const half = Math.floor((maxBytes - RESULT_ENVELOPE_BYTES) / 2);
  const text = half > 0 ? jsonWithin(structuredContent, half) : undefined;
  const answered: CallToolResult | undefined = text === undefined ? undefined : { content: [{ type: 'text', text }], structuredContent };
  const bytes =
    answered === undefined
      ? undefined
      : Buffer.byteLength(JSON.stringify(answered.content)) + Buffer.byteLength(text ?? '') + RESULT_ENVELOPE_BYTES;
  if (answered === undefined || bytes === undefined || bytes > maxBytes)
    return {
      ...sized(
        errorResult(
          'RESPONSE_TOO_LARGE',
          `the result is larger than the ${maxBytes} bytes this request may still be answered with (APP_MCP__MAX_RESPONSE_BYTES); ask for a smaller page`,
        ),
      ),
      overBudget: true,
    };
  return { result: answered, bytes };
}

/** A failed call as a tool result: `isError`, the code and message as text, and the failure as `structuredContent.error`. */
function errorResult(code: string, message: string, details: { field?: string; issues?: readonly InputIssue[] } = {}): CallToolResult {
  const error = {
    code,
    message,
    ...(details.field !== undefined ? { field: details.field } : {}),
    ...(details.issues !== undefined ? { issues: listedIssues(details.issues) } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], structuredContent: { error } };
}

/**
 * Runs one call of `tool` for `caller` with `args` (docs/behaviour.md §4.6), in the caller's ambient
 * context: the posture gate (no token on a guarded tool: `UNAUTHENTICATED`; not granted:
 * `FORBIDDEN`), the arguments checked and piped (`BAD_USER_INPUT` with every issue), the
 * operation, and its value masked. Every outcome is a tool result; failures are `isError` results
 * with the code, and a database or internal fault says only `database error` or `internal server
 * error` (details go to `logger`). Never rejects.
 */
export async function callTool(
  tool: McpToolDefinition,
  args: Readonly<Record<string, unknown>>,
  caller: McpCaller,
  logger: Logger,
): Promise<CallToolResult> {
  const { answer } = caller;
  if (!answer) return (await runCall(tool, args, caller, logger, Number.POSITIVE_INFINITY)).result;
  // One call at a time per request, each with what the earlier ones left of the budget.
  const result = answer.queue.then(async () => {
    if (answer.remaining <= 0)
      return errorResult(
        'RESPONSE_TOO_LARGE',
        'this request has been answered with as many bytes as it may be (APP_MCP__MAX_RESPONSE_BYTES); the call was not run',
      );
    const run = await runCall(tool, args, caller, logger, answer.remaining);
    // A value refused past the budget spends what is left: the calls after it are not run, and its
    // client is charged the refusal (docs/hostile-input.md §14).
    if (run.overBudget) {
      answer.remaining = 0;
      caller.refused?.();
    } else answer.remaining -= run.bytes;
    return run.result;
  });
  answer.queue = result.catch(() => undefined);
  return result;
}

/** One tool call (see {@link callTool}), its value answered when its JSON is at most `maxBytes`. */
async function runCall(
  tool: McpToolDefinition,
  args: Readonly<Record<string, unknown>>,
  caller: McpCaller,
  logger: Logger,
  maxBytes: number,
): Promise<SizedResult> {
  // The rows a call reads count against what the request may still answer (its value is written
  // twice), so a call past the budget stops reading there rather than running in full (docs/hostile-input.md §14).
  const request: RequestContext =
    maxBytes === Number.POSITIVE_INFINITY
      ? caller.request
      : {
          ...caller.request,
          rows: new RowBudget(Number.POSITIVE_INFINITY, Math.max(0, Math.floor(maxBytes / 2)), 'APP_MCP__MAX_RESPONSE_BYTES'),
        };
  try {
    return await runInContext(request, async () => {
      if (tool.posture.kind === 'authorized') authorize(request, caller.authentication, tool.posture.action, tool.posture.subject);
      const checked = await checkedArguments(tool, args);
      return valueResult(tool, await tool.invoke(checked, request), maxBytes);
    });
  } catch (error) {
    const classified = classifyError(error);
    if (classified.kind === 'failure') {
      const { code, message, field, issues } = classified.failure;
      const result = sized(
        errorResult(code, message, { ...(field !== undefined ? { field } : {}), ...(issues !== undefined ? { issues } : {}) }),
      );
      return code === 'RESPONSE_TOO_LARGE' ? { ...result, overBudget: true } : result;
    }
    logger.error(
      { err: error, tool: tool.name },
      classified.kind === 'database' ? 'database error in an MCP tool call' : 'MCP tool call failed',
    );
    return sized(errorResult('INTERNAL_SERVER_ERROR', classified.kind === 'database' ? classified.message : INTERNAL_ERROR_MESSAGE));
  }
}
