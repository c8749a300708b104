/**
 * What every emitter reads: the resolved model and where output goes (docs/architecture.md §1:
 * emitters read only the resolved model). Also the small type-spelling helpers shared
 * by emitters (TypeScript types of wire values).
 */
import type { EntityModel, PostureModel, ResolvedApp } from '../model/model.js';
import type { NamedType, TypeShape } from '../model/types.js';
import type { ImportSet } from './writer.js';

/** What the application's package.json says about it, for the OpenAPI documents' `info`. */
export interface ProjectInfo {
  readonly license?: { readonly name: string; readonly identifier?: string };
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
}

/** Inputs of an emitter. */
export interface EmitContext {
  readonly app: ResolvedApp;
  /** The output folder relative to the project root (`generated`). */
  readonly outputDir: string;
  /** The application's license and contact (generator/project-info.ts), when its package.json gives them. */
  readonly project?: ProjectInfo;
}

/** Exposed entities, sorted by name. */
export function exposedEntities(app: ResolvedApp): EntityModel[] {
  return app.entities.filter((entity) => entity.exposed);
}

/** Every entity that gets a repository, sorted by name: keyed by one `id`, or by a composite key (docs/behaviour.md §2.6). */
export function repositoryEntities(app: ResolvedApp): EntityModel[] {
  return app.entities.filter((entity) => entity.keyed || entity.compositeKey);
}

/** The wire (exposed) column names of an entity, in declared order. */
export function wireFields(entity: EntityModel): string[] {
  return entity.columns.filter((column) => column.exposed).map((column) => column.name);
}

/**
 * The TypeScript type of a wire value of `named` (as resolvers receive it), importing enum
 * aliases and input interfaces from their declaration files.
 */
function tsNamedType(app: ResolvedApp, named: NamedType, imports: ImportSet): string {
  switch (named.kind) {
    case 'scalar':
      return named.name === 'Int' || named.name === 'Float'
        ? 'number'
        : named.name === 'Boolean'
          ? 'boolean'
          : named.name === 'DateTime'
            ? 'Date'
            : 'string';
    case 'enum': {
      const declared = app.enumByName.get(named.name);
      return declared ? imports.type(declared.span.file, declared.name) : 'string';
    }
    case 'input': {
      const declared = app.inputByName.get(named.name);
      return declared ? imports.type(declared.span.file, declared.name) : 'never';
    }
    case 'entity': {
      const declared = app.entityByName.get(named.name);
      return declared ? imports.type(declared.source.file, declared.name) : 'never';
    }
    case 'unsupported':
      return 'never';
  }
}

/** The TypeScript type of an argument as GraphQL delivers it (nullable → `| null`, optional key). */
export function tsArgumentType(app: ResolvedApp, shape: TypeShape, imports: ImportSet): string {
  const base = tsNamedType(app, shape.named, imports);
  const listed = shape.list ? `readonly ${base}[]` : base;
  return shape.nullable ? `${listed} | null` : listed;
}

/**
 * The expression calling an operation's method, `call`, as its posture has it (docs/behaviour.md
 * §5.7): a public operation's call runs as the operation's own work (`runPublicOperation`: what
 * repositories read for it is scoped but not masked); an authorized one's as it is. `promised`
 * awaits it.
 */
export function postureCall(imports: ImportSet, posture: PostureModel | undefined, call: string, promised: boolean): string {
  const awaited = promised ? 'await ' : '';
  if (posture?.kind !== 'public') return `${awaited}${call}`;
  return `${awaited}${imports.value('runtime/auth/context.ts', 'runPublicOperation')}(() => ${call})`;
}
