/**
 * Decorator misplaced
 *
 * A runtime decorator acts only where its signature says (runtime/declarations/decorator-signatures.ts): on the
 * kind of declaration it decorates, inside a class carrying the decorator it belongs to (`@Column`
 * in an `@Entity()`, `@Get` in a `@Controller()`), beside the decorator it modifies (`@Authorized`
 * beside an operation or route, `@UseGuards` on a module, resolver or GraphQL operation). Anywhere
 * else `generate` would ignore it.
 */
import { signatureOf } from '../decorator-arguments.js';
import type { Rule } from '../rule.js';

/** `@A`, `@A or @B`, `@A, @B or @C`. */
const list = (names: readonly string[]): string => {
  const marked = names.map((name) => `@${name}`);
  return marked.length < 2 ? marked.join('') : `${marked.slice(0, -1).join(', ')} or ${marked[marked.length - 1]}`;
};
const overlaps = (written: readonly string[], wanted: readonly string[]): boolean => written.some((name) => wanted.includes(name));

export const decoratorMisplaced: Rule = (app, report) => {
  for (const use of app.decorators) {
    const signature = signatureOf(use.decorator.name);
    if (!signature) continue;
    const name = `@${use.decorator.name}`;
    const span = use.decorator.span;
    if (!signature.on.includes(use.target)) {
      report({
        message: `${name} decorates a ${signature.on.join(' or a ')}, not a ${use.target} (${use.declaration}), so generate would ignore it here; move it or remove it`,
        span,
      });
    } else if (signature.within && !overlaps(use.classDecorators, signature.within)) {
      report({
        message: `${name} acts only in a class marked ${list(signature.within)}, and ${use.className} is not one, so generate would ignore ${name} on ${use.declaration}; mark the class or remove ${name}`,
        span,
      });
    } else if (signature.beside && !overlaps(use.beside, signature.beside)) {
      const where = use.target === 'parameter' ? 'on a method marked' : 'beside';
      report({
        message: `${name} on ${use.declaration} acts only ${where} ${list(signature.beside)}, so generate would ignore it here; add one or remove ${name}`,
        span,
      });
    }
  }
};
