/**
 * What the runtime needs to know about each exposed entity, emitted by the generator into
 * `generated/entities.ts`: its wire fields (masking, selection checks) and relations.
 */

/** A relation field of an exposed entity (docs/behaviour.md §2.1, §2.2). */
interface RelationDescriptor {
  readonly kind: 'belongsTo' | 'hasMany' | 'manyToMany';
  /** The field name on the parent type. */
  readonly field: string;
  /** The related entity. */
  readonly target: string;
  /** belongs_to: the parent's column holding the key. has_many: the child's key column. many_to_many: the join entity's column holding the parent's key. */
  readonly column: string;
}

/** An exposed entity as the runtime sees it. */
export interface EntityDescriptor {
  /** Entity, GraphQL type and CASL subject name. */
  readonly name: string;
  /** Column fields on the wire, in declared order. */
  readonly fields: readonly string[];
  /** Exposed relation fields. */
  readonly relations: readonly RelationDescriptor[];
}
