/**
 * Emits the OpenAPI catalog (`openapi/catalog.ts`, read by the running server to build documents
 * for its configuration) and the documents of the default configuration (URI versioning, no
 * prefix, no default version): `openapi/openapi.json` (every version) and `openapi/v<version>.json`.
 */
import { buildOpenApiDocument, type ApiCatalog, type CatalogOperation, type CatalogParameter, type JsonSchema } from '../../../runtime/openapi.js';
import { declaredVersions } from '../../model/application.js';
import type { AppModel, NamedType, ReturnShape, TypeShape } from '../../model/model.js';
import { type EmitContext, exposedEntities } from '../context.js';
import { routePath, routeVersions } from '../http/routes.js';
import { type GeneratedFile, TypeScriptFile } from '../writer.js';

const SCALAR_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ID: { type: 'string', format: 'uuid' },
  String: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
};

function namedSchema(named: NamedType): JsonSchema {
  if (named.kind === 'scalar') return SCALAR_SCHEMAS[named.name] ?? { type: 'string' };
  if (named.kind === 'unsupported') return {};
  return { $ref: `#/components/schemas/${named.name}` };
}

function shapeSchema(shape: TypeShape, description?: string): JsonSchema {
  let schema: JsonSchema = namedSchema(shape.named);
  if (shape.list) schema = { type: 'array', items: schema };
  if (shape.nullable) schema = { anyOf: [schema, { type: 'null' }] };
  return description ? { ...schema, description } : schema;
}

function returnSchema(shape: ReturnShape): JsonSchema | undefined {
  if (shape.kind === 'void') return undefined;
  if (shape.kind === 'page') return { type: 'array', items: namedSchema(shape.item) };
  return shapeSchema({ ...shape.type, nullable: false });
}

/** Component schemas: exposed entities (fields a grant excludes may be absent), inputs, enums. */
function schemasOf(model: AppModel): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const named: [string, JsonSchema][] = [];
  for (const entity of exposedEntities(model)) {
    const properties: Record<string, JsonSchema> = {};
    for (const column of entity.columns) if (column.exposed) properties[column.name] = shapeSchema(column.type, column.doc);
    named.push([entity.name, { type: 'object', ...(entity.doc ? { description: `${entity.doc}\n\nFields the caller's grant excludes are omitted.` } : {}), properties, required: ['id'] }]);
  }
  for (const input of model.inputs) {
    const properties: Record<string, JsonSchema> = {};
    for (const field of input.fields) properties[field.name] = shapeSchema(field.type, field.doc);
    const required = input.fields.filter((field) => !field.type.nullable).map((field) => field.name);
    named.push([input.name, { type: 'object', ...(input.doc ? { description: input.doc } : {}), properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }]);
  }
  for (const enumeration of model.enums) named.push([enumeration.name, { type: 'string', ...(enumeration.doc ? { description: enumeration.doc } : {}), enum: [...enumeration.values] }]);
  for (const [name, schema] of named.sort(([a], [b]) => a.localeCompare(b))) schemas[name] = schema;
  return schemas;
}

/** The catalog of the mounted routes. */
export function buildCatalog(context: EmitContext): ApiCatalog {
  const { model, application } = context;
  const operations: CatalogOperation[] = [];
  for (const controller of application.controllers) {
    for (const route of controller.routes) {
      const isPage = route.returns.kind === 'page';
      const parameters: CatalogParameter[] = [];
      let requestBody: JsonSchema | undefined;
      for (const param of route.params) {
        if (param.source === 'body') {
          requestBody = shapeSchema({ ...param.type, nullable: false });
        } else if (isPage && param.name === 'first' && param.source === 'query') {
          parameters.push({ name: 'first', in: 'query', required: false, description: 'Rows per page: default 20, clamped to 1..100; anything unparseable means 20.', schema: { type: 'integer', default: 20 } });
        } else if (isPage && param.name === 'after' && param.source === 'query') {
          parameters.push({ name: 'after', in: 'query', required: false, description: 'The last id of the previous page (its x-next-cursor); an unparseable value pages from the start.', schema: { type: 'string' } });
        } else {
          parameters.push({ name: param.name, in: param.source === 'path' ? 'path' : 'query', required: param.source === 'path' || !param.type.nullable, schema: shapeSchema({ ...param.type, nullable: false }) });
        }
      }
      const posture = route.postures[0];
      const body = returnSchema(route.returns);
      operations.push({
        method: route.method,
        path: routePath(controller, route),
        versions: [...routeVersions(controller, route)],
        controller: controller.name,
        handler: route.methodName,
        ...(route.doc ? { summary: route.doc } : {}),
        authorized: posture?.kind === 'authorized',
        parameters,
        ...(requestBody ? { requestBody } : {}),
        reply: isPage ? 'page' : route.returns.kind === 'void' ? 'empty' : route.returns.type.list ? 'list' : 'value',
        status: route.httpCode ?? (route.method === 'POST' ? 201 : route.returns.kind === 'void' ? 204 : 200),
        ...(body ? { body } : {}),
        result: route.returns.kind !== 'void' && route.returns.result,
      });
    }
  }
  const tags = application.controllers.map((controller) => ({ name: controller.name, ...(controller.doc ? { description: controller.doc } : {}) })).sort((a, b) => a.name.localeCompare(b.name));
  return { title: 'Resource Service API', tags, schemas: schemasOf(model), operations };
}

/** `openapi/catalog.ts` and the default-configuration documents. */
export function emitOpenApi(context: EmitContext): GeneratedFile[] {
  const catalog = buildCatalog(context);
  const file = new TypeScriptFile('openapi/catalog.ts', context, 'Every REST route, version-neutral, for the OpenAPI documents the server builds for its configuration\n(runtime/openapi.ts). The documents of the default configuration are beside this file.');
  const type = file.imports.type('runtime/openapi.ts', 'ApiCatalog');
  file.body.writeLine(`export const API_CATALOG: ${type} = ${JSON.stringify(catalog, null, 2)};`);
  const policies = Object.fromEntries(context.model.versionPolicies.map((policy) => [policy.version, { ...(policy.deprecated !== undefined ? { deprecated: policy.deprecated } : {}), ...(policy.sunset !== undefined ? { sunset: policy.sunset } : {}) }]));
  const options = { strategy: 'uri' as const, header: 'X-API-Version', prefix: '', policies };
  const documents: GeneratedFile[] = [{ path: 'openapi/openapi.json', content: `${JSON.stringify(buildOpenApiDocument(catalog, undefined, options), null, 2)}\n` }];
  for (const version of declaredVersions(context.application)) {
    documents.push({ path: `openapi/v${version}.json`, content: `${JSON.stringify(buildOpenApiDocument(catalog, version, options), null, 2)}\n` });
  }
  return [file.render(), ...documents];
}
