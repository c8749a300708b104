/**
 * Emits the OpenAPI catalog (`openapi/catalog.ts`, read by the running server to build documents
 * for its configuration) and the documents of the default configuration (URI versioning, no
 * prefix, no default version): `openapi/openapi.json` (every version) and `openapi/v<version>.json`.
 * Each route's status, reply kind, page parameters, tags, summary and description are its resolved
 * fields; the page-size numbers come from the runtime's own constants (runtime/data/keyset.ts), so the
 * document cannot disagree with what the server does. Every text is for the API's callers: tags
 * and descriptions come from the declarations' caller-facing parts (docs/guide/declaring.md
 * "Descriptions on the wire"), and what the generator writes itself names no internal constant or document.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '../../../runtime/data/keyset.js';
import {
  API_TITLE,
  buildOpenApiDocument,
  type ApiCatalog,
  type CatalogOperation,
  type CatalogParameter,
  type CatalogTag,
  type JsonSchema,
} from '../../../runtime/http/openapi.js';
import type { ResourceColumnConstraints } from '../../../runtime/data/resource-input.js';
import type { ParamModel, ResolvedApp } from '../../model/model.js';
import type { DeprecationModel, NamedType, ReturnShape, TypeShape } from '../../model/types.js';
import { type EmitContext, exposedEntities } from '../context.js';
import { type GeneratedFile, TypeScriptFile } from '../writer.js';
import { openApiDocumentPath } from '../../paths.js';
import { alwaysReadable } from '../../resolve/grants.js';

const SCALAR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ID: { type: 'string', format: 'uuid' },
  String: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
};

/** The schema of a value of `named`: a scalar's, or a reference to its component schema. */
export function namedSchema(named: NamedType): JsonSchema {
  if (named.kind === 'scalar') return SCALAR_SCHEMAS[named.name] ?? { type: 'string' };
  if (named.kind === 'unsupported') return {};
  return { $ref: `#/components/schemas/${named.name}` };
}

/** JSON Schema keywords of a column's value constraints (docs/behaviour.md §4.7). */
function constraintKeywords(constraints: ResourceColumnConstraints | undefined): JsonSchema {
  if (!constraints) return {};
  const { maxLength, minLength, min, max, pattern, format } = constraints;
  return {
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(min === undefined ? {} : { minimum: min }),
    ...(max === undefined ? {} : { maximum: max }),
    ...(pattern === undefined ? {} : { pattern }),
    ...(format === undefined ? {} : { format }),
  };
}

/** The schema of a value of `shape` (a list, nullable), with its description and constraint keywords. */
export function shapeSchema(shape: TypeShape, description?: string, constraints?: ResourceColumnConstraints): JsonSchema {
  let schema: JsonSchema = { ...namedSchema(shape.named), ...constraintKeywords(constraints) };
  if (shape.list) schema = { type: 'array', items: schema };
  if (shape.nullable) schema = { anyOf: [schema, { type: 'null' }] };
  return description ? { ...schema, description } : schema;
}

/** What callers read of a deprecation (docs/behaviour.md §2.7): its reason, after the description. */
function deprecatedText(description: string | undefined, deprecation: DeprecationModel): string {
  return [description, `Deprecated: ${deprecation.reason}`].filter((part): part is string => part !== undefined).join('\n\n');
}

/**
 * The schema of a field of an entity or input (`shape`, its description and constraint keywords),
 * marked `deprecated: true` with the reason in its description when `deprecation` is given.
 */
function fieldSchema(
  shape: TypeShape,
  description: string | undefined,
  deprecation: DeprecationModel | undefined,
  constraints?: ResourceColumnConstraints,
): JsonSchema {
  if (deprecation === undefined) return shapeSchema(shape, description, constraints);
  return { ...shapeSchema(shape, deprecatedText(description, deprecation), constraints), deprecated: true };
}

function returnSchema(shape: ReturnShape): JsonSchema | undefined {
  if (shape.kind === 'void') return undefined;
  if (shape.kind === 'page') return { type: 'array', items: namedSchema(shape.item) };
  return shapeSchema({ ...shape.type, nullable: false });
}

/**
 * Component schemas: exposed entities, inputs, enums. An entity's non-null field is `required`
 * when every read grant lets it be seen (one a grant excludes may be absent; generator/resolve/grants.ts).
 */
export function schemasOf(app: ResolvedApp): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const named: [string, JsonSchema][] = [];
  for (const entity of exposedEntities(app)) {
    const properties: Record<string, JsonSchema> = {};
    for (const column of entity.columns)
      if (column.exposed) properties[column.name] = fieldSchema(column.type, column.description, column.deprecation);
    const required = entity.columns
      .filter(
        (column) =>
          column.exposed && (column.primaryKey || (!column.type.nullable && alwaysReadable(app.grants, entity.name, column.name))),
      )
      .map((column) => column.name);
    named.push([
      entity.name,
      {
        type: 'object',
        ...(entity.description ? { description: `${entity.description}\n\nFields the caller's grant excludes are omitted.` } : {}),
        properties,
        required,
      },
    ]);
  }
  for (const input of app.inputs) {
    const properties: Record<string, JsonSchema> = {};
    for (const field of input.fields)
      properties[field.name] = fieldSchema(field.type, field.description, field.deprecation, field.constraints);
    const required = input.fields.filter((field) => !field.type.nullable).map((field) => field.name);
    named.push([
      input.name,
      {
        type: 'object',
        ...(input.description ? { description: input.description } : {}),
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      },
    ]);
  }
  for (const enumeration of app.enums)
    named.push([
      enumeration.name,
      { type: 'string', ...(enumeration.description ? { description: enumeration.description } : {}), enum: [...enumeration.values] },
    ]);
  for (const [name, schema] of named.sort(([a], [b]) => a.localeCompare(b))) schemas[name] = schema;
  return schemas;
}

/** The OpenAPI parameter of a path or query parameter, by how the route obtains it. */
function parameterOf(param: ParamModel): CatalogParameter {
  switch (param.binding) {
    case 'pageSize':
      return {
        name: param.name,
        in: 'query',
        required: false,
        description: `Page size, ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}). An integer outside that range is clamped to it; one that is not an integer is refused (400).`,
        schema: { type: 'integer', default: DEFAULT_PAGE_SIZE },
      };
    case 'cursor':
      return {
        name: param.name,
        in: 'query',
        required: false,
        description: 'The last id of the previous page (its x-next-cursor); an unparseable value pages from the start.',
        schema: { type: 'string' },
      };
    default:
      return {
        name: param.name,
        in: param.source === 'path' ? 'path' : 'query',
        required: param.source === 'path' || !param.type.nullable,
        ...(param.deprecation ? { description: deprecatedText(undefined, param.deprecation), deprecated: true } : {}),
        schema: shapeSchema({ ...param.type, nullable: false }),
      };
  }
}

/** The catalog of the mounted routes, with the application's license and contact (`context.project`). */
function buildCatalog(context: EmitContext): ApiCatalog {
  const { app } = context;
  const operations: CatalogOperation[] = [];
  for (const controller of app.mounted.controllers) {
    for (const route of controller.routes) {
      const parameters: CatalogParameter[] = [];
      let requestBody: JsonSchema | undefined;
      for (const param of route.params) {
        if (param.binding === 'body') requestBody = shapeSchema({ ...param.type, nullable: false });
        else parameters.push(parameterOf(param));
      }
      const body = returnSchema(route.returns);
      operations.push({
        method: route.method,
        path: route.fullPath,
        versions: [...route.versions],
        controller: controller.name,
        handler: route.methodName,
        tags: [...controller.tags],
        ...(route.operationText.summary ? { summary: route.operationText.summary } : {}),
        ...(route.operationText.description ? { description: route.operationText.description } : {}),
        authorized: route.posture?.kind === 'authorized',
        parameters,
        ...(requestBody ? { requestBody } : {}),
        reply: route.reply,
        status: route.status,
        ...(body ? { body } : {}),
        result: route.returns.kind !== 'void' && route.returns.result,
      });
    }
  }
  const tags = app.mounted.controllers
    .flatMap((controller) =>
      controller.tags.map((name): CatalogTag => ({
        name,
        controller: controller.name,
        ...(controller.description ? { description: controller.description } : {}),
      })),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
  const { license, contact } = context.project ?? {};
  return { title: API_TITLE, ...(license ? { license } : {}), ...(contact ? { contact } : {}), tags, schemas: schemasOf(app), operations };
}

/** `openapi/catalog.ts` and the default-configuration documents. */
export function emitOpenApi(context: EmitContext): GeneratedFile[] {
  const catalog = buildCatalog(context);
  const file = new TypeScriptFile(
    'openapi/catalog.ts',
    context,
    'Every REST route, version-neutral, for the OpenAPI documents the server builds for its configuration\n(runtime/http/openapi.ts). The documents of the default configuration are beside this file.',
  );
  const type = file.imports.type('runtime/http/openapi.ts', 'ApiCatalog');
  file.body.writeLine(`export const API_CATALOG: ${type} = ${JSON.stringify(catalog, null, 2)};`);
  const policies = Object.fromEntries(
    context.app.versionPolicies.map((policy) => [
      policy.version,
      {
        ...(policy.deprecated !== undefined ? { deprecated: policy.deprecated } : {}),
        ...(policy.sunset !== undefined ? { sunset: policy.sunset } : {}),
      },
    ]),
  );
  const options = { strategy: 'uri' as const, header: 'X-API-Version', prefix: '', policies };
  const documents: GeneratedFile[] = [
    { path: openApiDocumentPath(undefined), content: `${JSON.stringify(buildOpenApiDocument(catalog, undefined, options), null, 2)}\n` },
  ];
  for (const version of context.app.mounted.versions) {
    documents.push({
      path: openApiDocumentPath(version),
      content: `${JSON.stringify(buildOpenApiDocument(catalog, version, options), null, 2)}\n`,
    });
  }
  return [file.render(), ...documents];
}
