/**
 * Checks real responses against an OpenAPI 3.1 document the server served (RELIABILITY.md §1): finds the
 * operation by method and path template, requires the status to be documented, the media type to
 * be the documented one, and the body to validate with Ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1). Object schemas are closed (`unevaluatedProperties: false`) for the check, so a
 * field the document does not name fails too.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;

/** One documented operation, found by {@link OpenApiValidator.operation}. */
interface FoundOperation {
  readonly pointer: string;
  readonly operation: Json;
}

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function closeObjects(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) closeObjects(item);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  if (node.type === 'object' && node.properties && node.additionalProperties === undefined) node.unevaluatedProperties = false;
  for (const value of Object.values(node)) closeObjects(value);
}

/** A validator over one served OpenAPI document. */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { readonly path: string; readonly pattern: RegExp; readonly literal: number }[];

  /** @param document the OpenAPI document as served (copied, then closed, before use). */
  constructor(private readonly document: Json) {
    const copy = structuredClone(document);
    closeObjects((copy.components as Json | undefined)?.schemas);
    addFormats(this.ajv);
    this.ajv.addSchema(copy, 'api');
    this.templates = Object.keys(document.paths as Json).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literal: path.replace(/\{[^}]+\}/g, '').length,
    }));
  }

  /** The documented operation answering `method` at `pathname`, if any (literal paths first). */
  operation(method: string, pathname: string): FoundOperation | undefined {
    const candidates = this.templates.filter((template) => template.pattern.test(pathname)).sort((a, b) => b.literal - a.literal);
    for (const candidate of candidates) {
      const item = (this.document.paths as Record<string, Json>)[candidate.path];
      const operation = item?.[method.toLowerCase()] as Json | undefined;
      if (operation) return { pointer: `#/paths/${escapePointer(candidate.path)}/${method.toLowerCase()}`, operation };
    }
    return undefined;
  }

  /**
   * Problems with one response (empty when it matches). An undocumented address must answer a
   * problem document (404 or 405).
   */
  check(method: string, pathname: string, status: number, contentType: string | null, body: unknown): string[] {
    const found = this.operation(method, pathname);
    // Answered before routing, whatever the address: past the body, header or rate limits.
    if ([408, 413, 429, 431].includes(status) && !(found && String(status) in (found.operation.responses as Json))) {
      return this.validate(
        '#/components/schemas/Problem',
        body,
        `${method} ${pathname} ${status}`,
        contentType,
        'application/problem+json',
      );
    }
    if (!found) {
      if (![404, 405].includes(status)) return [`${method} ${pathname} is not documented, yet answered ${status}`];
      return this.validate(
        '#/components/schemas/Problem',
        body,
        `${method} ${pathname} ${status}`,
        contentType,
        'application/problem+json',
      );
    }
    const responses = found.operation.responses as Json;
    let response = responses[String(status)] as Json | undefined;
    let pointer = `${found.pointer}/responses/${status}`;
    if (!response)
      return [`${method} ${pathname} answered ${status}, which its operation ${String(found.operation.operationId)} does not document`];
    if (typeof response.$ref === 'string') {
      pointer = response.$ref;
      response = this.resolve(response.$ref);
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) return body === undefined ? [] : [`${method} ${pathname} ${status} documents no body, yet one came`];
    const [mediaType] = Object.keys(content);
    return this.validate(
      `${pointer}/content/${escapePointer(mediaType ?? '')}/schema`,
      body,
      `${method} ${pathname} ${status}`,
      contentType,
      mediaType ?? '',
    );
  }

  private validate(pointer: string, body: unknown, label: string, contentType: string | null, expectedType: string): string[] {
    const problems: string[] = [];
    if (!contentType?.startsWith(expectedType))
      problems.push(`${label}: content-type ${contentType ?? 'none'}, documented ${expectedType}`);
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `api${pointer}` });
      this.compiled.set(pointer, validate);
    }
    if (!validate(body)) problems.push(`${label}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
    return problems;
  }

  private resolve(ref: string): Json {
    let node: unknown = this.document;
    for (const segment of ref.replace(/^#\//, '').split('/')) node = (node as Json)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node as Json;
  }
}
