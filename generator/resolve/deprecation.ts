/**
 * Deprecations, resolved (docs/behaviour.md §2.7): a column, relation, computed field or GraphQL
 * operation is deprecated by its decorator's `deprecationReason` option, by a `@deprecated` tag
 * in its docstring, or by both; what callers read is decided here once. Two reasons that differ
 * are kept for rule `deprecation-conflict`, which refuses them.
 */
import { DEFAULT_DEPRECATION_REASON } from 'graphql';
import type { DeclaredValue } from '../model/declarations.js';
import { plainInlineTags } from '../model/docs.js';
import type { DeprecationModel, WrittenDeprecation } from '../model/types.js';

/**
 * The deprecation of a field or operation from its `deprecationReason` option (`option`, the
 * value written, if any) and its docstring's `@deprecated` tag (`tag`, as parse read it).
 *
 * Returns undefined when neither is written. Otherwise the reason is the option's when it says one,
 * else the tag's (inline links as their text), else GraphQL's default, `No longer supported`. An
 * option that is not a string literal is no deprecation here: `decorator-argument-invalid` reports it.
 */
export function deprecationOf(option: DeclaredValue | undefined, tag: WrittenDeprecation | undefined): DeprecationModel | undefined {
  const written: WrittenDeprecation | undefined =
    option?.kind === 'string' ? { reason: option.value.trim(), span: option.span } : undefined;
  const tagged: WrittenDeprecation | undefined =
    tag === undefined ? undefined : { reason: plainInlineTags(tag.reason).trim(), span: tag.span };
  if (written === undefined && tagged === undefined) return undefined;
  const reason = [written?.reason, tagged?.reason].find((text) => text !== undefined && text.length > 0) ?? DEFAULT_DEPRECATION_REASON;
  return { reason, option: written, tag: tagged };
}
