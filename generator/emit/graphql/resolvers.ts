/**
 * Emits `graphql/resolvers.ts`: one resolver per mounted operation (docs/behaviour.md §4.1, §5.5). Each
 * reads, in order: the posture gate (authorized operations: ability, then the selection against
 * field grants), the argument pipes, the call of the declared method, the unwrapping of a
 * `Result`, and the masking of the returned entities.
 */
import type CodeBlockWriter from 'code-block-writer';
import type { OperationModel, ParamModel } from '../../model/model.js';
import { fieldsConstant, pipesConstant, providerVariable } from '../../model/naming.js';
import { type EmitContext, postureCall, tsArgumentType } from '../context.js';
import { writePipeConstants } from '../pipes.js';
import {
  type GeneratedFile,
  type ImportSet,
  parameterList,
  quote,
  RUNTIME_FOR_GENERATED_CODE,
  TypeScriptFile,
  writeDoc,
} from '../writer.js';

/** The expression passing a parameter's value to the method (absent optional → undefined). */
export function argumentValue(param: ParamModel, value: string): string {
  if (param.optional) return `${value} ?? undefined`;
  if (param.type.nullable) return `${value} ?? null`;
  return value;
}

/** Where an operation is declared, for the resolver's docstring. */
function origin(operation: OperationModel): string {
  return `${operation.owner}.${operation.methodName} (${operation.span.file}:${operation.span.line})`;
}

function postureText(operation: OperationModel): string {
  const posture = operation.posture;
  if (!posture) return 'no posture';
  return posture.kind === 'public' ? 'public (ungated)' : `authorized: ${posture.action} ${posture.subject}`;
}

/** Whether the returned value is masked with the caller's grant: an entity returned behind a gate (docs/behaviour.md §5.5). */
function masks(operation: OperationModel): boolean {
  return operation.returns.kind !== 'void' && operation.returnedEntity !== undefined && operation.posture?.kind === 'authorized';
}

class ResolverWriter {
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

  private argsType(operation: OperationModel): string {
    if (operation.params.length === 0) return 'Record<string, never>';
    const members = operation.params.map(
      (param) => `readonly ${param.name}${param.type.nullable ? '?' : ''}: ${tsArgumentType(this.context.app, param.type, this.imports)}`,
    );
    return `{ ${members.join('; ')} }`;
  }

  /** Writes the statements computing each argument; returns the call's argument list. */
  private writeArguments(operation: OperationModel): string[] {
    return operation.params.map((param) => {
      if (param.pipes.length === 0) return argumentValue(param, `args.${param.name}`);
      const apply = this.imports.value('runtime/declarations/pipes.ts', 'applyPipes');
      const ownerType = this.imports.type(operation.file, operation.owner);
      // A subscription's method takes the published item first.
      const index = operation.params.indexOf(param) + (operation.operationType === 'subscription' ? 1 : 0);
      this.w.writeLine(
        `const ${param.name} = (await ${apply}(args.${param.name}, ${pipesConstant(operation.owner, operation.methodName, param.name)})) as Parameters<${ownerType}['${operation.methodName}']>[${index}];`,
      );
      return param.name;
    });
  }

  /** The expression returned for the operation's value `value`. */
  private returned(operation: OperationModel, value: string): string {
    const shape = operation.returns;
    let out = value;
    if (shape.kind !== 'void' && shape.result) out = `${this.imports.value('runtime/failures/result.ts', 'unwrap')}(${out})`;
    if (shape.kind === 'page') out = `${out}.items`;
    if (shape.kind === 'void') return 'true';
    const entity = operation.returnedEntity;
    if (!entity || !masks(operation)) return out;
    const mask = this.imports.value('runtime/auth/ability.ts', 'maskOutput');
    const fields = this.imports.value(`${this.context.outputDir}/entities.ts`, fieldsConstant(entity));
    return `${mask}(context.request, ${quote(entity)}, ${fields}, ${out})`;
  }

  private writeGate(operation: OperationModel): void {
    const posture = operation.posture;
    if (posture?.kind !== 'authorized') return;
    const gate = this.imports.value('runtime/graphql/operation.ts', 'authorizeOperation');
    const entities = this.imports.value(`${this.context.outputDir}/entities.ts`, 'ENTITY_BY_NAME');
    this.w.writeLine(`${gate}(context, info, ${entities}, ${quote(posture.action)}, ${quote(posture.subject)});`);
  }

  writeOperation(operation: OperationModel): void {
    const w = this.w;
    const context = this.imports.type('runtime/graphql/context.ts', 'GraphQLContext');
    const info = this.imports.type(RUNTIME_FOR_GENERATED_CODE, 'GraphQLResolveInfo');
    writeDoc(w, [operation.doc, `${operation.rootType}.${operation.fieldName} → ${origin(operation)}; ${postureText(operation)}.`]);
    if (operation.operationType === 'subscription') {
      this.writeSubscription(operation, context, info);
      return;
    }
    // The gate reads the context and the selection; masking (only behind a gate) the context.
    const gated = operation.posture?.kind === 'authorized';
    const awaits = operation.returns.promised || operation.params.some((param) => param.pipes.length > 0);
    const parameters = parameterList([
      { name: 'parent', type: 'unknown', used: false },
      { name: 'args', type: this.argsType(operation), used: operation.params.length > 0 },
      { name: 'context', type: context, used: gated },
      { name: 'info', type: info, used: gated },
    ]);
    w.write(`${operation.fieldName}: ${awaits ? 'async ' : ''}(${parameters}) => `).inlineBlock(() => {
      this.writeGate(operation);
      const callArgs = this.writeArguments(operation);
      const call = postureCall(
        this.imports,
        operation.posture,
        `${providerVariable(operation.owner)}.${operation.methodName}(${callArgs.join(', ')})`,
        operation.returns.promised,
      );
      if (operation.returns.kind === 'void') {
        w.writeLine(`${call};`);
        w.writeLine('return true;');
      } else {
        w.writeLine(`const value = ${call};`);
        w.writeLine(`return ${this.returned(operation, 'value')};`);
      }
    });
    w.write(',').newLine();
  }

  /**
   * A subscription (docs/behaviour.md §4.1): `subscribe` gates, applies the argument pipes once, and
   * maps each readable item through the declared method — given the item and the subscriber's
   * arguments, it answers what is sent, or null to leave the item out; `resolve` masks what it sent.
   */
  private writeSubscription(operation: OperationModel, context: string, info: string): void {
    const w = this.w;
    const posture = operation.posture;
    const entity = operation.eventEntity;
    const ownerType = this.imports.type(operation.file, operation.owner);
    const itemType = `Parameters<${ownerType}['${operation.methodName}']>[0]`;
    const takesArguments = operation.params.length > 0;
    const pipes = operation.params.some((param) => param.pipes.length > 0);
    w.write(`${operation.fieldName}: `).inlineBlock(() => {
      const gated = posture?.kind === 'authorized';
      const readable = entity !== undefined && gated;
      const subscribeParameters = parameterList([
        { name: 'parent', type: 'unknown', used: false },
        { name: 'args', type: this.argsType(operation), used: takesArguments },
        { name: 'context', type: context, used: gated || readable },
        { name: 'info', type: info, used: gated },
      ]);
      w.write(`subscribe: ${pipes ? 'async ' : ''}(${subscribeParameters}) => `).inlineBlock(() => {
        this.writeGate(operation);
        const callArgs = this.writeArguments(operation);
        const published = `services.eventBus.subscribe<${itemType}>(${quote(operation.topic ?? operation.fieldName)})`;
        const source = readable
          ? `${this.imports.value('runtime/graphql/subscriptions.ts', 'readableItems')}(${published}, context, ${quote(entity)})`
          : published;
        const selected = this.imports.value('runtime/graphql/subscriptions.ts', 'selectedItems');
        const call = `${providerVariable(operation.owner)}.${operation.methodName}(${['item', ...callArgs].join(', ')})`;
        w.writeLine(`return ${selected}(${source}, (item: ${itemType}) => ${call});`);
      });
      w.write(',').newLine();
      const resolveParameters = parameterList([
        { name: 'value', type: 'NonNullable<Awaited<ReturnType<' + `${ownerType}['${operation.methodName}']>>>`, used: true },
        { name: 'args', type: 'unknown', used: false },
        { name: 'context', type: context, used: masks(operation) },
      ]);
      w.write(`resolve: (${resolveParameters}) => `).inlineBlock(() => {
        w.writeLine(`return ${this.returned(operation, 'value')};`);
      });
      w.write(',').newLine();
    });
    w.write(',').newLine();
  }
}

/** The `graphql/resolvers.ts` file. */
export function emitResolvers(context: EmitContext): GeneratedFile {
  const file = new TypeScriptFile(
    'graphql/resolvers.ts',
    context,
    'Resolvers of every mounted GraphQL operation (docs/behaviour.md §4.1). Each one: posture gate, argument pipes,\nthe declared method, Result unwrapping, masking of returned entities (docs/behaviour.md §5.5).',
  );
  const { body: w, imports } = file;
  const writer = new ResolverWriter(context, file);
  const resolvers = context.app.mounted.resolvers;
  writePipeConstants(
    file,
    resolvers.flatMap((resolver) =>
      resolver.operations.map((operation) => ({
        owner: operation.owner,
        methodName: operation.methodName,
        label: `${operation.rootType}.${operation.fieldName}`,
        noun: 'argument',
        params: operation.params,
      })),
    ),
  );
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const services = imports.type('runtime/server/server.ts', 'RuntimeServices');
  const resolverMap = imports.type(RUNTIME_FOR_GENERATED_CODE, 'IResolvers');
  const graphqlContext = imports.type('runtime/graphql/context.ts', 'GraphQLContext');
  const operations = resolvers.flatMap((resolver) => resolver.operations);
  const usesServices = operations.some((operation) => operation.operationType === 'subscription');
  writeDoc(w, ["The resolver map, bound to the container's resolver instances."]);
  w.write(
    `export function createResolvers(container: ${container}, ${usesServices ? 'services' : '_services'}: ${services}): ${resolverMap}<unknown, ${graphqlContext}>`,
  ).block(() => {
    const owners = [...new Set(operations.map((operation) => providerVariable(operation.owner)))].sort();
    if (owners.length > 0) w.writeLine(`const { ${owners.join(', ')} } = container;`);
    const relations = imports.value(`${context.outputDir}/graphql/relations.ts`, 'createRelationResolvers');
    w.write('return ').inlineBlock(() => {
      w.writeLine(`...${relations}(container),`);
      for (const root of ['Query', 'Mutation', 'Subscription'] as const) {
        const ofRoot = operations.filter((operation) => operation.rootType === root);
        if (ofRoot.length === 0) continue;
        w.write(`${root}: `).inlineBlock(() => {
          for (const operation of ofRoot) writer.writeOperation(operation);
        });
        w.write(',').newLine();
      }
    });
    w.write(';');
  });
  return file.render();
}
