/**
 * `@Complexity(expr)` expressions (docs/behaviour.md §8): arithmetic over numbers, `first` and
 * `childComplexity` with `+ - * /` and parentheses. Checked at generate time (the
 * `complexity-expression-invalid` rule) and emitted as a small arrow function, so nothing is
 * parsed or evaluated at run time.
 */

/** The names an expression may use. */
const COMPLEXITY_NAMES = ['first', 'childComplexity'] as const;

/** A checked expression: its text and the names it uses, or why it is refused. */
export type ComplexityExpression =
  { readonly ok: true; readonly text: string; readonly names: readonly string[] } | { readonly ok: false; readonly reason: string };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/()]))/y;

/** Checks `expression` (a number or an arithmetic expression) by tokenizing and parsing it. */
export function checkComplexityExpression(expression: string): ComplexityExpression {
  const tokens: string[] = [];
  const names = new Set<string>();
  TOKEN.lastIndex = 0;
  let position = 0;
  const text = expression.trim();
  while (position < text.length) {
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(text);
    if (!match) return { ok: false, reason: `unexpected ${JSON.stringify(text.slice(position, position + 1))} at column ${position + 1}` };
    const [all, number, name, operator] = match;
    if (name !== undefined) {
      if (!(COMPLEXITY_NAMES as readonly string[]).includes(name))
        return { ok: false, reason: `unknown name ${name}; an expression may use first and childComplexity` };
      names.add(name);
      tokens.push(name);
    } else tokens.push(number ?? operator ?? '');
    position += all.length;
  }
  if (tokens.length === 0) return { ok: false, reason: 'the expression is empty' };
  // Grammar: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*; factor := number | name | '(' expr ')' | '-' factor
  let index = 0;
  const peek = (): string | undefined => tokens[index];
  const factor = (): boolean => {
    const token = peek();
    if (token === undefined) return false;
    if (token === '-') {
      index++;
      return factor();
    }
    if (token === '(') {
      index++;
      if (!expr() || peek() !== ')') return false;
      index++;
      return true;
    }
    if (/^[\d.]+$/.test(token) || names.has(token)) {
      index++;
      return true;
    }
    return false;
  };
  const term = (): boolean => {
    if (!factor()) return false;
    while (peek() === '*' || peek() === '/') {
      index++;
      if (!factor()) return false;
    }
    return true;
  };
  const expr = (): boolean => {
    if (!term()) return false;
    while (peek() === '+' || peek() === '-') {
      index++;
      if (!term()) return false;
    }
    return true;
  };
  if (!expr() || index !== tokens.length) return { ok: false, reason: 'it is not a well-formed arithmetic expression' };
  return { ok: true, text: tokens.join(' '), names: [...names].sort() };
}
