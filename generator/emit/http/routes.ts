/**
 * Emits `http/routes.ts`: one route definition per controller method of the mounted controllers
 * (spec §4.2, §4.3). Each handler reads, in order: the posture gate, the parameters (path, query
 * string, body checked against its input type), the pipes, the controller method, the unwrapping
 * of a `Result`, and the masking of returned entities.
 */
import type CodeBlockWriter from 'code-block-writer';
import type { ControllerModel, ParamModel, RouteModel } from '../../model/model.js';
import { fieldsConstant, pipesConstant, providerVariable, routeFunction } from '../../model/naming.js';
import { inputConstant, inputFieldLiteral } from '../app/entities.js';
import type { EmitContext } from '../context.js';
import { writePipeConstants } from '../pipes.js';
import { type GeneratedFile, type ImportSet, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The full path of a route without prefix or version: `/posts/:id/publish`. */
export function routePath(controller: ControllerModel, route: RouteModel): string {
  return `/${[controller.path, route.path].filter(Boolean).join('/')}`;
}

/** The versions a route mounts under (route-level `@Version`, else the controller's). */
export function routeVersions(controller: ControllerModel, route: RouteModel): readonly string[] {
  return route.versions ?? controller.versions;
}

function replyKind(route: RouteModel): string {
  if (route.returns.kind === 'page') return 'page';
  if (route.returns.kind === 'void') return 'empty';
  return route.returns.type.list ? 'list' : 'value';
}

class RouteWriter {
  constructor(
    private readonly context: EmitContext,
    private readonly file: TypeScriptFile,
  ) {}

  private get w(): CodeBlockWriter {
    return this.file.body;
  }

  private get imports(): ImportSet {
    return this.file.imports;
  }

  private ownerType(route: RouteModel): string {
    const source = this.context.model.providers.find((provider) => provider.name === route.owner)?.source.file ?? '';
    return this.imports.type(source, route.owner);
  }

  /** Reads one parameter into a local; returns the expression passed to the method. */
  private writeParameter(route: RouteModel, param: ParamModel, index: number): string {
    const paramType = `Parameters<${this.ownerType(route)}['${route.methodName}']>[${index}]`;
    const isPage = route.returns.kind === 'page';
    if (isPage && param.name === 'first' && param.source === 'query') {
      return `${this.imports.value('runtime/keyset.ts', 'clampPageSize')}(${this.imports.value('runtime/http/routes.ts', 'queryText')}(call.query, 'first'))`;
    }
    if (isPage && param.name === 'after' && param.source === 'query') {
      return `${this.imports.value('runtime/keyset.ts', 'parseCursor')}(${this.imports.value('runtime/http/routes.ts', 'queryText')}(call.query, 'after'))`;
    }
    let raw: string;
    if (param.source === 'body') {
      const coerce = this.imports.value('runtime/inputs.ts', 'coerceInput');
      const structure = param.type.named.kind === 'input' ? this.imports.value(`${this.context.outputDir}/entities.ts`, inputConstant(param.type.named.name)) : undefined;
      raw = structure ? `${coerce}({ ...${structure}, nullable: ${param.type.nullable} }, call.body, 'body')` : 'call.body';
    } else if (param.source === 'path' && param.type.named.kind === 'scalar' && (param.type.named.name === 'String' || param.type.named.name === 'ID')) {
      raw = `${this.imports.value('runtime/http/routes.ts', 'pathParameter')}(call, ${quote(param.name)})`;
    } else {
      const coerce = this.imports.value('runtime/inputs.ts', 'coerceQueryParameter');
      raw = `${coerce}(${inputFieldLiteral(this.context.model, param.type)}, call.${param.source === 'path' ? 'params' : 'query'}.${param.name}, ${quote(param.name)})`;
    }
    if (param.pipes.length > 0) {
      const apply = this.imports.value('runtime/pipes.ts', 'applyPipes');
      this.w.writeLine(`const ${param.name} = (await ${apply}(${raw}, ${pipesConstant(route.owner, route.methodName, param.name)})) as ${paramType};`);
      return param.name;
    }
    if (raw.includes('pathParameter(')) return raw;
    this.w.writeLine(`const ${param.name} = ${raw} as ${paramType};`);
    return param.name;
  }

  private returned(route: RouteModel): string {
    const shape = route.returns;
    if (shape.kind === 'void') return 'undefined';
    const unwrap = shape.result ? this.imports.value('runtime/result.ts', 'unwrap') : undefined;
    const value = unwrap ? `${unwrap}(value)` : 'value';
    const entity = shape.kind === 'page' ? (shape.item.kind === 'entity' ? shape.item.name : undefined) : shape.type.named.kind === 'entity' ? shape.type.named.name : undefined;
    if (!entity || route.postures[0]?.kind !== 'authorized') return value;
    const mask = this.imports.value('runtime/ability.ts', 'maskOutput');
    const fields = this.imports.value(`${this.context.outputDir}/entities.ts`, fieldsConstant(entity));
    if (shape.kind === 'page') {
      if (unwrap) this.w.writeLine(`const page = ${value};`);
      const page = unwrap ? 'page' : 'value';
      return `{ ...${page}, items: ${mask}(call.request, ${quote(entity)}, ${fields}, ${page}.items) }`;
    }
    return `${mask}(call.request, ${quote(entity)}, ${fields}, ${value})`;
  }

  writeRoute(controller: ControllerModel, route: RouteModel): void {
    const w = this.w;
    const definition = this.imports.type('runtime/http/routes.ts', 'RouteDefinition');
    const path = routePath(controller, route);
    const posture = route.postures[0];
    const file = this.context.model.providers.find((provider) => provider.name === route.owner)?.source.file ?? '?';
    writeDoc(w, [route.doc, `${route.method} ${path} → ${route.owner}.${route.methodName} (${file}:${route.span.line}); ${posture?.kind === 'authorized' ? `authorized: ${posture.action} ${posture.subject}` : 'public (ungated)'}.`]);
    w.write(`const ${routeFunction(route.owner, route.methodName)}: ${definition} = `).inlineBlock(() => {
      w.writeLine(`method: '${route.method}',`);
      w.writeLine(`path: ${quote(path)},`);
      w.writeLine(`versions: [${routeVersions(controller, route).map(quote).join(', ')}],`);
      w.writeLine(`controllerVersions: [${controller.versions.map(quote).join(', ')}],`);
      w.writeLine(`controller: ${quote(route.owner)},`);
      w.writeLine(`handler: ${quote(route.methodName)},`);
      w.writeLine(`status: ${route.httpCode ?? (route.method === 'POST' ? 201 : route.returns.kind === 'void' ? 204 : 200)},`);
      w.writeLine(`reply: '${replyKind(route)}',`);
      w.writeLine(`takesBody: ${route.params.some((param) => param.source === 'body')},`);
      w.write('handle: async (call) => ').inlineBlock(() => {
        if (posture?.kind === 'authorized') {
          w.writeLine(`${this.imports.value('runtime/posture.ts', 'authorize')}(call.request, call.authentication, ${quote(posture.action)}, ${quote(posture.subject)});`);
        }
        const args = route.params.map((param, index) => this.writeParameter(route, param, index));
        const call = `${providerVariable(route.owner)}.${route.methodName}(${args.join(', ')})`;
        if (route.returns.kind === 'void') {
          w.writeLine(`await ${call};`);
          w.writeLine('return undefined;');
          return;
        }
        w.writeLine(`const value = await ${call};`);
        w.writeLine(`return ${this.returned(route)};`);
      });
      w.write(',').newLine();
    });
    w.write(';').newLine();
  }
}

/** The `http/routes.ts` file. */
export function emitRoutes(context: EmitContext): GeneratedFile {
  const file = new TypeScriptFile(
    'http/routes.ts', context,
    'The HTTP routes of every mounted controller (spec §4.2, §4.3). Each handler: posture gate, parameters\n(body checked against its input type), pipes, the declared method, Result unwrapping, masking.',
  );
  const { body: w, imports } = file;
  const writer = new RouteWriter(context, file);
  const controllers = context.application.controllers;
  writePipeConstants(
    file,
    controllers.flatMap((controller) => controller.routes.map((route) => ({ owner: route.owner, methodName: route.methodName, label: `${route.owner}.${route.methodName}`, noun: 'parameter', params: route.params }))),
  );
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const definition = imports.type('runtime/http/routes.ts', 'RouteDefinition');
  writeDoc(w, ['Every route, bound to the container\'s controller instances.']);
  w.write(`export function createRoutes(container: ${container}): readonly ${definition}[]`).block(() => {
    const owners = [...new Set(controllers.filter((controller) => controller.routes.length > 0).map((controller) => providerVariable(controller.name)))].sort();
    if (owners.length > 0) w.writeLine(`const { ${owners.join(', ')} } = container;`);
    w.blankLine();
    for (const controller of controllers) {
      for (const route of controller.routes) {
        writer.writeRoute(controller, route);
        w.blankLine();
      }
    }
    const names = controllers.flatMap((controller) => controller.routes.map((route) => routeFunction(route.owner, route.methodName)));
    w.writeLine(`return [${names.join(', ')}];`);
  });
  return file.render();
}
