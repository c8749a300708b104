/**
 * Emits `http/routes.ts`: one route definition per controller method of the mounted controllers
 * (docs/behaviour.md §4.2, §4.3). Each handler reads, in order: the posture gate, the parameters (path, query
 * string, body checked against its input type), the pipes, the controller method, the unwrapping
 * of a `Result`, and the masking of returned entities. Status, reply kind, versions and how each
 * parameter is obtained are the route's resolved fields; nothing is decided here.
 */
import type CodeBlockWriter from 'code-block-writer';
import type { ControllerModel, ParamModel, RouteModel } from '../../model/model.js';
import { fieldsConstant, pipesConstant, providerVariable, routeFunction } from '../../model/naming.js';
import { inputConstant, inputFieldLiteral } from '../app/entities.js';
import { type EmitContext, postureCall } from '../context.js';
import { writePipeConstants } from '../pipes.js';
import { type GeneratedFile, type ImportSet, parameterList, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The query parameters a route reads, in declaration order: any other one is refused (docs/behaviour.md §4.2). */
function queryParameters(route: RouteModel): string[] {
  return route.params
    .filter(
      (param) => param.binding === 'pageSize' || param.binding === 'cursor' || param.binding === 'query' || param.binding === 'argument',
    )
    .map((param) => param.name);
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

  /** The expression reading a parameter's raw value, by how the route obtains it. */
  private rawValue(param: ParamModel): string {
    const queryText = (name: string): string => `${this.imports.value('runtime/http/routes.ts', 'queryText')}(call.query, ${quote(name)})`;
    switch (param.binding) {
      case 'pageSize':
        return `${this.imports.value('runtime/http/routes.ts', 'pageSizeParameter')}(call.query, ${quote(param.name)})`;
      case 'cursor':
        return `${this.imports.value('runtime/data/keyset.ts', 'parseCursor')}(${queryText(param.name)})`;
      case 'pathText':
        return `${this.imports.value('runtime/http/routes.ts', 'pathParameter')}(call, ${quote(param.name)})`;
      case 'body': {
        const structure =
          param.type.named.kind === 'input'
            ? this.imports.value(`${this.context.outputDir}/entities.ts`, inputConstant(param.type.named.name))
            : undefined;
        return structure
          ? `${this.imports.value('runtime/http/inputs.ts', 'coerceInput')}({ ...${structure}, nullable: ${param.type.nullable} }, call.body, 'body')`
          : 'call.body';
      }
      case 'path':
      case 'query':
      case 'argument':
        return `${this.imports.value('runtime/http/inputs.ts', 'coerceQueryParameter')}(${inputFieldLiteral(this.context.app, param.type)}, call.${param.binding === 'path' ? 'params' : 'query'}.${param.name}, ${quote(param.name)})`;
    }
  }

  /** Reads one parameter (into a local when it is piped or coerced); returns the expression passed to the method. */
  private writeParameter(route: RouteModel, param: ParamModel, index: number): string {
    const paramType = (): string => `Parameters<${this.imports.type(route.file, route.owner)}['${route.methodName}']>[${index}]`;
    const raw = this.rawValue(param);
    // The page size and cursor are already what the method takes; a text path segment too, unless piped.
    if (param.binding === 'pageSize' || param.binding === 'cursor') return raw;
    if (param.pipes.length > 0) {
      const apply = this.imports.value('runtime/declarations/pipes.ts', 'applyPipes');
      this.w.writeLine(
        `const ${param.name} = (await ${apply}(${raw}, ${pipesConstant(route.owner, route.methodName, param.name)})) as ${paramType()};`,
      );
      return param.name;
    }
    if (param.binding === 'pathText') return raw;
    this.w.writeLine(`const ${param.name} = ${raw} as ${paramType()};`);
    return param.name;
  }

  private returned(route: RouteModel): string {
    const shape = route.returns;
    if (shape.kind === 'void') return 'undefined';
    const unwrap = shape.result ? this.imports.value('runtime/failures/result.ts', 'unwrap') : undefined;
    const value = unwrap ? `${unwrap}(value)` : 'value';
    const entity = route.returnedEntity;
    if (!entity || route.posture?.kind !== 'authorized') return value;
    const mask = this.imports.value('runtime/auth/ability.ts', 'maskOutput');
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
    const posture = route.posture;
    writeDoc(w, [
      route.doc,
      `${route.method} ${route.fullPath} → ${route.owner}.${route.methodName} (${route.span.file}:${route.span.line}); ${posture?.kind === 'authorized' ? `authorized: ${posture.action} ${posture.subject}` : 'public (ungated)'}.`,
    ]);
    w.write(`const ${routeFunction(route.owner, route.methodName)}: ${definition} = `).inlineBlock(() => {
      w.writeLine(`method: '${route.method}',`);
      w.writeLine(`path: ${quote(route.fullPath)},`);
      w.writeLine(`versions: [${route.versions.map(quote).join(', ')}],`);
      w.writeLine(`controllerVersions: [${controller.versions.map(quote).join(', ')}],`);
      w.writeLine(`controller: ${quote(route.owner)},`);
      w.writeLine(`handler: ${quote(route.methodName)},`);
      w.writeLine(`status: ${route.status},`);
      w.writeLine(`reply: '${route.reply}',`);
      w.writeLine(`takesBody: ${route.takesBody},`);
      w.writeLine(`query: [${queryParameters(route).map(quote).join(', ')}],`);
      // Every parameter is read from the call, and so is the principal a gate or a mask needs.
      const readsCall = posture?.kind === 'authorized' || route.params.length > 0;
      const awaits = route.returns.promised || route.params.some((param) => param.pipes.length > 0);
      w.write(`handle: ${awaits ? 'async ' : ''}(${parameterList([{ name: 'call', used: readsCall }])}) => `).inlineBlock(() => {
        if (posture?.kind === 'authorized') {
          w.writeLine(
            `${this.imports.value('runtime/auth/posture.ts', 'authorize')}(call.request, call.authentication, ${quote(posture.action)}, ${quote(posture.subject)});`,
          );
        }
        const args = route.params.map((param, index) => this.writeParameter(route, param, index));
        const call = postureCall(
          this.imports,
          posture,
          `${providerVariable(route.owner)}.${route.methodName}(${args.join(', ')})`,
          route.returns.promised,
        );
        if (route.returns.kind === 'void') {
          w.writeLine(`${call};`);
          w.writeLine('return undefined;');
          return;
        }
        w.writeLine(`const value = ${call};`);
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
    'http/routes.ts',
    context,
    'The HTTP routes of every mounted controller (docs/behaviour.md §4.2, §4.3). Each handler: posture gate, parameters\n(body checked against its input type), pipes, the declared method, Result unwrapping, masking.',
  );
  const { body: w, imports } = file;
  const writer = new RouteWriter(context, file);
  const controllers = context.app.mounted.controllers;
  writePipeConstants(
    file,
    controllers.flatMap((controller) =>
      controller.routes.map((route) => ({
        owner: route.owner,
        methodName: route.methodName,
        label: `${route.owner}.${route.methodName}`,
        noun: 'parameter',
        params: route.params,
      })),
    ),
  );
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const definition = imports.type('runtime/http/routes.ts', 'RouteDefinition');
  writeDoc(w, ["Every route, bound to the container's controller instances."]);
  w.write(`export function createRoutes(container: ${container}): readonly ${definition}[]`).block(() => {
    const owners = [
      ...new Set(controllers.filter((controller) => controller.routes.length > 0).map((controller) => providerVariable(controller.name))),
    ].sort();
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
