/**
 * Builds the GraphQL schema of the mounted application from the model with graphql-js (spec
 * §2, §4.1) and prints it as the committed SDL. Field names are the camelCase method names;
 * `Int` → Int, `string` → String, `boolean` → Boolean; an optional or nullable parameter is a
 * nullable argument; `Page<T>` and `T[]` are `[T!]!`; `Result<T>` is nullable.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLType,
} from 'graphql';
import { DateTimeScalar } from '../../../runtime/graphql/scalars.js';
import { printSdl } from '../../../runtime/graphql/sdl.js';
import type { EntityModel, OperationModel, OperationType, ParamModel } from '../../model/model.js';
import type { NamedType, ReturnShape, TypeShape } from '../../model/types.js';
import { connectionType, edgeType } from '../../model/naming.js';
import { type EmitContext, exposedEntities } from '../context.js';
import type { GeneratedFile } from '../writer.js';
import { SDL_PATH } from '../../paths.js';

const SCALARS = {
  ID: GraphQLID,
  String: GraphQLString,
  Int: GraphQLInt,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
  DateTime: DateTimeScalar,
} as const;

/** Builds graphql-js types for one model. */
class SchemaBuilder {
  private readonly enums = new Map<string, GraphQLEnumType>();
  private readonly inputs = new Map<string, GraphQLInputObjectType>();
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly connections = new Map<string, GraphQLObjectType>();
  private pageInfo: GraphQLObjectType | undefined;

  constructor(private readonly context: EmitContext) {}

  private named(named: NamedType, direction: 'input' | 'output'): GraphQLType {
    switch (named.kind) {
      case 'scalar':
        return SCALARS[named.name];
      case 'enum':
        return this.enumType(named.name);
      case 'input':
        return this.inputType(named.name);
      case 'entity':
        return direction === 'output' ? this.objectType(named.name) : GraphQLString;
      case 'unsupported':
        return GraphQLString;
    }
  }

  private shape(shape: TypeShape, direction: 'input' | 'output'): GraphQLType {
    const named = this.named(shape.named, direction);
    const type: GraphQLType = shape.list ? new GraphQLList(new GraphQLNonNull(named as never)) : named;
    return shape.nullable ? type : new GraphQLNonNull(type as never);
  }

  enumType(name: string): GraphQLEnumType {
    const existing = this.enums.get(name);
    if (existing) return existing;
    const model = this.context.app.enumByName.get(name);
    const type = new GraphQLEnumType({
      name,
      description: model?.description,
      values: Object.fromEntries((model?.values ?? []).map((value) => [value, { value }])),
    });
    this.enums.set(name, type);
    return type;
  }

  inputType(name: string): GraphQLInputObjectType {
    const existing = this.inputs.get(name);
    if (existing) return existing;
    const model = this.context.app.inputByName.get(name);
    const type = new GraphQLInputObjectType({
      name,
      description: model?.description,
      fields: () =>
        Object.fromEntries(
          (model?.fields ?? []).map((field) => [
            field.name,
            {
              type: this.shape(field.type, 'input') as GraphQLInputType,
              description: field.description,
              deprecationReason: field.deprecation?.reason,
            },
          ]),
        ),
    });
    this.inputs.set(name, type);
    return type;
  }

  objectType(name: string): GraphQLObjectType {
    const existing = this.objects.get(name);
    if (existing) return existing;
    const entity = this.context.app.entityByName.get(name);
    const type = new GraphQLObjectType({ name, description: entity?.description, fields: () => (entity ? this.entityFields(entity) : {}) });
    this.objects.set(name, type);
    return type;
  }

  private entityFields(entity: EntityModel): GraphQLFieldConfigMap<unknown, unknown> {
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const column of entity.columns) {
      if (!column.exposed) continue;
      fields[column.name] = {
        type: this.shape(column.type, 'output') as GraphQLOutputType,
        description: column.description,
        deprecationReason: column.deprecation?.reason,
      };
    }
    for (const relation of entity.wireRelations) {
      if (relation.kind === 'belongsTo') {
        // Nullable: null when the caller may not read the parent (docs/behaviour.md §5.8).
        fields[relation.name] = {
          type: this.objectType(relation.target),
          description: relation.description,
          deprecationReason: relation.deprecation?.reason,
        };
      } else {
        fields[relation.name] = {
          type: new GraphQLNonNull(this.connectionType(relation.target)),
          args: { first: { type: GraphQLInt }, after: { type: GraphQLString } },
          description: relation.description,
          deprecationReason: relation.deprecation?.reason,
        };
      }
    }
    for (const computed of this.context.app.mounted.fieldResolversByEntity.get(entity.name) ?? []) {
      fields[computed.fieldName] = {
        type: this.returnType(computed.returns),
        args: this.arguments(computed.params),
        description: computed.description,
        deprecationReason: computed.deprecation?.reason,
      };
    }
    return fields;
  }

  /** `PageInfo` (docs/behaviour.md §2.4). */
  private pageInfoType(): GraphQLObjectType {
    this.pageInfo ??= new GraphQLObjectType({
      name: 'PageInfo',
      description: 'Where a connection page ends.',
      fields: {
        hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean), description: 'Whether more rows follow this page.' },
        endCursor: {
          type: GraphQLString,
          description: 'The primary key of the last row of this page; pass it as `after` for the next page.',
        },
      },
    });
    return this.pageInfo;
  }

  /** `<Entity>Connection` and `<Entity>Edge` (docs/behaviour.md §2.4). */
  connectionType(entity: string): GraphQLObjectType {
    const existing = this.connections.get(entity);
    if (existing) return existing;
    const edge = new GraphQLObjectType({
      name: edgeType(entity),
      description: `One ${entity} of a connection page.`,
      fields: () => ({
        cursor: { type: new GraphQLNonNull(GraphQLString), description: `The ${entity}'s primary key.` },
        node: { type: new GraphQLNonNull(this.objectType(entity)) },
      }),
    });
    const connection = new GraphQLObjectType({
      name: connectionType(entity),
      description: `A page of ${entity} rows of one parent, in id order.`,
      fields: () => ({
        edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(edge))) },
        pageInfo: { type: new GraphQLNonNull(this.pageInfoType()) },
      }),
    });
    this.connections.set(entity, connection);
    return connection;
  }

  arguments(params: readonly ParamModel[]): GraphQLFieldConfigArgumentMap {
    return Object.fromEntries(
      params.map((param) => [
        param.name,
        { type: this.shape(param.type, 'input') as GraphQLInputType, deprecationReason: param.deprecation?.reason },
      ]),
    );
  }

  returnType(shape: ReturnShape): GraphQLOutputType {
    if (shape.kind === 'page') return new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.named(shape.item, 'output') as never)));
    if (shape.kind === 'void') return GraphQLBoolean;
    return this.shape(shape.type, 'output') as GraphQLOutputType;
  }

  rootType(name: string, operations: readonly OperationModel[]): GraphQLObjectType | undefined {
    if (operations.length === 0) return undefined;
    return new GraphQLObjectType({
      name,
      fields: () =>
        Object.fromEntries(
          operations.map((operation) => [
            operation.fieldName,
            {
              type: this.returnType(operation.returns),
              args: this.arguments(operation.params),
              description: operation.description,
              deprecationReason: operation.deprecation?.reason,
            },
          ]),
        ),
    });
  }
}

/** The GraphQL schema of the mounted application. */
function buildModelSchema(context: EmitContext): GraphQLSchema {
  const builder = new SchemaBuilder(context);
  const operations = context.app.mounted.resolvers.flatMap((resolver) => resolver.operations);
  const ofType = (type: OperationType): OperationModel[] => operations.filter((operation) => operation.operationType === type);
  return new GraphQLSchema({
    query:
      builder.rootType('Query', ofType('query')) ??
      new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean, description: 'No queries are declared.' } } }),
    mutation: builder.rootType('Mutation', ofType('mutation')),
    subscription: builder.rootType('Subscription', ofType('subscription')),
    types: exposedEntities(context.app).map((entity) => builder.objectType(entity.name)),
  });
}

/** The committed SDL, `schema.graphql`. */
export function emitSdl(context: EmitContext): GeneratedFile {
  return { path: SDL_PATH, content: printSdl(buildModelSchema(context)) };
}
