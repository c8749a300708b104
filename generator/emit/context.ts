/**
 * What every emitter reads: the model, the mounted application, and where output goes. Also the
 * small type-spelling helpers shared by emitters (TypeScript types of wire values).
 */
import type { Application } from '../model/application.js';
import type { AppModel, EntityModel, InputModel, NamedType, TypeShape } from '../model/model.js';
import type { ImportSet } from './writer.js';

/** Inputs of an emitter. */
export interface EmitContext {
  readonly model: AppModel;
  readonly application: Application;
  /** The output folder relative to the project root (`generated`). */
  readonly outputDir: string;
  /** The runtime library relative to the project root (`runtime`). */
  readonly runtimeDir: string;
}

/** Exposed entities, sorted by name. */
export function exposedEntities(model: AppModel): EntityModel[] {
  return model.entities.filter((entity) => entity.exposed);
}

/** Entities keyed by a single `id` column: the ones that get a repository (cursors are ids). */
export function keyedEntities(model: AppModel): EntityModel[] {
  return model.entities.filter((entity) => {
    const keys = entity.columns.filter((column) => column.primaryKey);
    return keys.length === 1 && keys[0]?.name === 'id';
  });
}

/** The wire (exposed) column names of an entity, in declared order. */
export function wireFields(entity: EntityModel): string[] {
  return entity.columns.filter((column) => column.exposed).map((column) => column.name);
}

/** The input model named `name`. */
export function inputNamed(model: AppModel, name: string): InputModel | undefined {
  return model.inputs.find((input) => input.name === name);
}

/**
 * The TypeScript type of a wire value of `named` (as resolvers receive it), importing enum
 * aliases and input interfaces from their declaration files.
 */
export function tsNamedType(model: AppModel, named: NamedType, imports: ImportSet): string {
  switch (named.kind) {
    case 'scalar':
      return named.name === 'Int' || named.name === 'Float' ? 'number' : named.name === 'Boolean' ? 'boolean' : named.name === 'DateTime' ? 'Date' : 'string';
    case 'enum': {
      const declared = model.enums.find((candidate) => candidate.name === named.name);
      return declared ? imports.type(declared.span.file, declared.name) : 'string';
    }
    case 'input': {
      const declared = inputNamed(model, named.name);
      return declared ? imports.type(declared.span.file, declared.name) : 'never';
    }
    case 'entity': {
      const declared = model.entities.find((candidate) => candidate.name === named.name);
      return declared ? imports.type(declared.source.file, declared.name) : 'never';
    }
    case 'unsupported':
      return 'never';
  }
}

/** The TypeScript type of an argument as GraphQL delivers it (nullable → `| null`, optional key). */
export function tsArgumentType(model: AppModel, shape: TypeShape, imports: ImportSet): string {
  const base = tsNamedType(model, shape.named, imports);
  const listed = shape.list ? `readonly ${base}[]` : base;
  return shape.nullable ? `${listed} | null` : listed;
}
