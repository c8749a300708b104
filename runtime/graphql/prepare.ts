/**
 * What happens to every GraphQL operation before it runs, for both transports (HTTP and
 * graphql-ws): the document is parsed and validated once per query text, checked against the
 * depth and complexity limits, then the operation's guard chain runs once (spec §5.2) and what the
 * guards seeded — principal and ability — becomes the operation's context (spec §5.4).
 */
import { type DocumentNode, type ExecutionArgs, getOperationAST, GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Logger } from 'pino';
import type { Authentication } from '../auth.js';
import { ANONYMOUS, type RequestContext } from '../context.js';
import { classifyError } from '../errors.js';
import { type CanActivate, type NamedGuard, runGuards } from '../guards.js';
import type { GraphQLContext } from './context.js';
import { DocumentCache } from './http.js';
import type { QueryLimits } from './limits.js';

/** Guard chains of one schema, as generated in `graphql/guards.ts`. */
export interface GuardTable {
  /** Chain names by root field (`Query.users`). */
  readonly operations: Readonly<Record<string, readonly string[]>>;
  /** The chain of operations selecting no declared field. */
  readonly global: readonly string[];
  /** Guard instances by name. */
  readonly guards: Readonly<Record<string, CanActivate>>;
}

/** A request for an operation, from either transport. */
export interface OperationRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null | undefined;
  readonly operationName?: string | null | undefined;
}

/** Ready to execute, or refused (errors, with codes). */
export type PreparedOperation =
  | { readonly kind: 'ready'; readonly args: ExecutionArgs & { contextValue: GraphQLContext }; readonly operation: OperationDefinitionNode; readonly extensions?: Record<string, unknown> }
  | { readonly kind: 'refused'; readonly errors: readonly GraphQLError[] };

/** The root fields an operation selects, as `Type.field` (through fragments on the root type). */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode, rootType: string): string[] {
  const fragments = new Map(document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION).map((definition) => [definition.name.value, definition]));
  const fields = new Set<string>();
  const visit = (selectionSet: SelectionSetNode, seen: Set<string>): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.name.value.startsWith('__')) fields.add(`${rootType}.${selection.name.value}`);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet, new Set([...seen, selection.name.value]));
      }
    }
  };
  visit(operation.selectionSet, new Set());
  return [...fields];
}

/** Prepares operations of one schema. */
export class OperationPreparer {
  private readonly documents: DocumentCache;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: QueryLimits,
    private readonly guards: GuardTable,
    private readonly contextFor: (request: RequestContext, authentication: Authentication) => GraphQLContext,
    private readonly logger: Logger,
  ) {
    this.documents = new DocumentCache(schema);
  }

  /** The guard chain of `fields`: the union of their chains, in order, each guard once. */
  private chainOf(fields: readonly string[]): NamedGuard[] {
    const names: string[] = [];
    for (const field of fields) for (const name of this.guards.operations[field] ?? []) if (!names.includes(name)) names.push(name);
    if (fields.length === 0) names.push(...this.guards.global);
    return names.map((name) => {
      const guard = this.guards.guards[name];
      if (!guard) throw new Error(`no guard named ${name}`);
      return { name, guard };
    });
  }

  /** Parses, validates, checks limits and runs guards; never throws for a caller's mistake. */
  async prepare(request: OperationRequest, authentication: Authentication, transport: 'graphql' | 'graphql-ws'): Promise<PreparedOperation> {
    const prepared = this.documents.prepare(request.query);
    if ('errors' in prepared) return { kind: 'refused', errors: prepared.errors };
    const operation = getOperationAST(prepared.document, request.operationName);
    if (!operation) {
      const message = request.operationName ? `no operation named ${request.operationName} in the document` : 'the document has several operations; send operationName';
      return { kind: 'refused', errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] };
    }
    const base: ExecutionArgs = { schema: this.schema, document: prepared.document, operationName: request.operationName, variableValues: request.variables };
    const checked = this.limits.check(base);
    if (checked.errors.length > 0) return { kind: 'refused', errors: checked.errors };
    const rootType = this.schema.getRootType(operation.operation)?.name ?? 'Query';
    const fields = rootFields(prepared.document, operation, rootType);
    let seeded: RequestContext;
    try {
      seeded = await runGuards(this.chainOf(fields), { transport, fields, authentication, seeded: ANONYMOUS }, this.logger);
    } catch (error) {
      const classified = classifyError(error);
      if (classified.kind !== 'failure') throw error;
      return { kind: 'refused', errors: [new GraphQLError(classified.failure.message, { extensions: { code: classified.failure.code } })] };
    }
    return {
      kind: 'ready',
      args: { ...base, contextValue: this.contextFor(seeded, authentication) },
      operation,
      ...(checked.extensions ? { extensions: checked.extensions } : {}),
    };
  }
}
