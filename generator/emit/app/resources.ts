/**
 * Emits one module per `@Resource` entity (docs/behaviour.md §4.7): the create and update input
 * types, the columns its input schemas check, and the class the routes and GraphQL fields call —
 * a thin binding of the runtime's `ResourceService` (runtime/data/resource-service.ts) to the
 * entity's repository. Which operations exist, their postures, routes and fields were decided in
 * resolve/resources.ts; this only writes them.
 */
import { inputColumnsConstant, repositoryClass, repositoryModule, resourceModule } from '../../model/naming.js';
import type { ResourceModel, RouteModel } from '../../model/model.js';
import type { InputModel } from '../../model/types.js';
import { type EmitContext, tsArgumentType } from '../context.js';
import { PRISMA_CLIENT_MODULE } from './repositories.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** A plain value as TypeScript source: `{ name: 'body', constraints: { maxLength: 2000 } }`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, item]) => `${key}: ${literal(item)}`).join(', ')} }`;
  }
  return String(value);
}

/** Where the operation is served: `GET /v2/comments · Query.comments`. */
function servedAt(resource: ResourceModel, kind: string): string {
  const route = resource.controller.routes.find((candidate: RouteModel) => candidate.methodName === kind);
  const operation = resource.resolver.operations.find((candidate) => candidate.methodName === kind);
  const prefix = resource.version === undefined ? '' : `/v${resource.version}`;
  const posture = route?.posture?.kind === 'authorized' ? `authorized: ${route.posture.action} ${resource.name}` : 'public';
  return `${route ? `${route.method} ${prefix}${route.fullPath}` : ''} · ${operation ? `${operation.rootType}.${operation.fieldName}` : ''} (${posture})`;
}

function emitResource(resource: ResourceModel, context: EmitContext): GeneratedFile {
  const { outputDir, app } = context;
  const { entity } = resource;
  const file = new TypeScriptFile(
    resourceModule(entity.name),
    context,
    `The ${entity.name} resource (${entity.source.file}:${resource.span.line}, docs/behaviour.md §4.7): ${resource.operations.map((operation) => operation.kind).join(', ')}\nover the scoped ${repositoryClass(entity.name)}. Inputs are checked against the columns below; what the\ncaller's grant fixes or does not permit is refused (runtime/data/resource-input.ts).`,
  );
  const { body: w, imports } = file;
  const writeInput = (input: InputModel): void => {
    writeDoc(w, [input.description]);
    w.write(`export interface ${input.name}`).block(() => {
      for (const field of input.fields) {
        if (field.description) writeDoc(w, [field.description]);
        w.writeLine(`readonly ${field.name}${field.type.nullable ? '?' : ''}: ${tsArgumentType(app, field.type, imports)};`);
      }
    });
    w.blankLine();
  };
  const kinds = new Set(resource.operations.map((operation) => operation.kind));
  if (kinds.has('create')) writeInput(resource.createInput);
  if (kinds.has('update')) writeInput(resource.updateInput);

  const columnType = imports.type('runtime/data/resource-input.ts', 'ResourceColumn');
  writeDoc(w, [`The columns ${entity.name}'s create and update take, with the constraints written on them.`]);
  w.write(`const ${inputColumnsConstant(entity.name)}: readonly ${columnType}[] = [`).indent(() => {
    for (const column of resource.inputColumns) w.writeLine(`${literal(column)},`);
  });
  w.writeLine('];');
  w.blankLine();

  const service = imports.value('runtime/data/resource-service.ts', 'ResourceService');
  const repository = imports.type(`${outputDir}/${repositoryModule(entity.name)}`, repositoryClass(entity.name));
  const client = `${outputDir}/${PRISMA_CLIENT_MODULE}`;
  imports.type(client, 'Prisma');
  const row = imports.type(client, entity.name);
  const result =
    kinds.has('get') || kinds.has('create') || kinds.has('update') ? imports.type('runtime/failures/result.ts', 'Result') : 'Result';
  const filters = resource.filters.map((column) => ({
    name: column.name,
    type: tsArgumentType(app, { ...column.type, nullable: true }, imports),
  }));
  writeDoc(w, [`The ${entity.name} resource's operations, called by http/routes.ts and graphql/resolvers.ts after the posture gate.`]);
  w.write(`export class ${resource.className}`).block(() => {
    w.writeLine(
      `private readonly service: ${service}<${row}, Prisma.${entity.name}WhereInput, Prisma.${entity.name}UncheckedCreateInput>;`,
    );
    w.blankLine();
    w.write(`constructor(repository: ${repository})`).block(() => {
      const keyFilters = resource.filters.filter((column) => column.key).map((column) => quote(column.name));
      w.writeLine(
        `this.service = new ${service}(${quote(entity.name)}, repository, ${inputColumnsConstant(entity.name)}${keyFilters.length > 0 ? `, [${keyFilters.join(', ')}]` : ''});`,
      );
    });
    const filterParams = filters.map((filter) => `${filter.name}?: ${filter.type}`);
    const filterObject = `{ ${filters.map((filter) => filter.name).join(', ')} }`;
    if (kinds.has('list')) {
      w.blankLine();
      if (resource.pagination === 'none') {
        writeDoc(w, [`${servedAt(resource, 'list')}: every row the caller may read (capped at 1 000).`]);
        w.write(`list(${filterParams.join(', ')}): Promise<${row}[]>`).block(() =>
          w.writeLine(`return this.service.listAll(${filters.length > 0 ? filterObject : ''});`),
        );
      } else {
        const page = imports.type('runtime/data/keyset.ts', 'Page');
        writeDoc(w, [`${servedAt(resource, 'list')}: a keyset page of the rows the caller may read.`]);
        w.write(`list(${['first?: number | null', 'after?: string | null', ...filterParams].join(', ')}): Promise<${page}<${row}>>`).block(
          () => w.writeLine(`return this.service.list({ first, after }${filters.length > 0 ? `, ${filterObject}` : ''});`),
        );
      }
    }
    if (kinds.has('get')) {
      w.blankLine();
      writeDoc(w, [`${servedAt(resource, 'get')}: NOT_FOUND when missing or not the caller's to read.`]);
      w.write(`get(id: string): Promise<${result}<${row}>>`).block(() => w.writeLine('return this.service.get(id);'));
    }
    if (kinds.has('create')) {
      w.blankLine();
      writeDoc(w, [`${servedAt(resource, 'create')}.`]);
      w.write(`create(input: ${resource.createInput.name}): Promise<${result}<${row}>>`).block(() =>
        w.writeLine('return this.service.create(input);'),
      );
    }
    if (kinds.has('update')) {
      w.blankLine();
      writeDoc(w, [`${servedAt(resource, 'update')}.`]);
      w.write(`update(id: string, input: ${resource.updateInput.name}): Promise<${result}<${row}>>`).block(() =>
        w.writeLine('return this.service.update(id, input);'),
      );
    }
    if (kinds.has('delete')) {
      w.blankLine();
      const unwrap = imports.value('runtime/failures/result.ts', 'unwrap');
      writeDoc(w, [
        `${servedAt(resource, 'delete')}: NOT_FOUND when missing or not the caller's to read, FORBIDDEN when read but not the caller's to delete.`,
      ]);
      w.write('async delete(id: string): Promise<void>').block(() => w.writeLine(`${unwrap}(await this.service.delete(id));`));
    }
  });
  return file.render();
}

/** One module per `@Resource` entity. */
export function emitResources(context: EmitContext): GeneratedFile[] {
  return context.app.resources.map((resource) => emitResource(resource, context));
}
