/**
 * Structural checks of input values that did not come through GraphQL's own coercion (REST
 * bodies and query strings): the same rules the GraphQL schema applies to an input object —
 * required fields present, scalars of the right type, enums within their values, DateTime
 * parsed — so both transports accept and refuse the same inputs. Rejections are
 * `BAD_USER_INPUT` failures listing every problem.
 */
import { INT_MAX, INT_MIN } from '../declarations/scalars.js';
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../failures/result.js';

/** The wire type of an input value. */
type InputType =
  | { readonly kind: 'scalar'; readonly name: 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'input'; readonly fields: Readonly<Record<string, InputFieldType>> };

/** A field's type with its list and nullability flags. */
export interface InputFieldType {
  readonly type: InputType;
  readonly list: boolean;
  readonly nullable: boolean;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function coerceNamed(type: InputType, value: unknown, path: string, issues: InputIssue[]): unknown {
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'ID':
        case 'String':
          if (typeof value === 'string') return value;
          break;
        case 'Int':
          if (typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX) return value;
          break;
        case 'Float':
          if (typeof value === 'number' && Number.isFinite(value)) return value;
          break;
        case 'Boolean':
          if (typeof value === 'boolean') return value;
          break;
        case 'DateTime': {
          const date = typeof value === 'string' ? new Date(value) : undefined;
          if (date && !Number.isNaN(date.getTime())) return date;
          break;
        }
      }
      issues.push({ path, message: `expected ${type.name}, got ${describe(value)}` });
      return undefined;
    case 'enum':
      if (typeof value === 'string' && type.values.includes(value)) return value;
      issues.push({ path, message: `expected one of ${type.values.join(', ')}, got ${describe(value)}` });
      return undefined;
    case 'input': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ path, message: `expected an object, got ${describe(value)}` });
        return undefined;
      }
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(type.fields)) {
        const fieldPath = path ? `${path}.${name}` : name;
        const coerced = coerceField(field, Object.hasOwn(record, name) ? record[name] : undefined, fieldPath, issues);
        if (coerced !== undefined) out[name] = coerced;
      }
      // Own names only: `name in fields` would take `constructor`, `toString` or a JSON `__proto__`
      // key (JSON.parse makes it an own property) for fields, and drop them unseen.
      for (const name of Object.keys(record)) {
        if (!Object.hasOwn(type.fields, name)) issues.push({ path: path ? `${path}.${name}` : name, message: 'is not a known field' });
      }
      return out;
    }
  }
}

function coerceField(field: InputFieldType, value: unknown, path: string, issues: InputIssue[]): unknown {
  if (value === undefined || value === null) {
    if (!field.nullable) issues.push({ path, message: 'is required' });
    return value;
  }
  if (!field.list) return coerceNamed(field.type, value, path, issues);
  if (!Array.isArray(value)) {
    issues.push({ path, message: `expected a list, got ${describe(value)}` });
    return undefined;
  }
  return value.map((item, index) => coerceNamed(field.type, item, `${path}.${index}`, issues));
}

/**
 * Checks and coerces `value` against `field` (DateTime strings become `Date`s). Returns the
 * coerced value; throws `BAD_USER_INPUT` listing every issue, each with its dotted path under
 * `name`.
 */
export function coerceInput(field: InputFieldType, value: unknown, name: string): unknown {
  const issues: InputIssue[] = [];
  const coerced = coerceField(field, value, name, issues);
  if (issues.length > 0) {
    throw new FailureError({ code: 'BAD_USER_INPUT', message: `invalid ${name}: ${issueSummary(issues)}`, issues: listedIssues(issues) });
  }
  return coerced;
}

/** Query-string text as the value of a scalar or enum parameter, or undefined when it does not read as one. */
function fromQueryText(type: InputType, text: string): unknown {
  if (type.kind !== 'scalar') return text;
  switch (type.name) {
    case 'Int':
    case 'Float':
      return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
    case 'Boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/**
 * Checks and coerces one query-string or path parameter (docs/behaviour.md §4.2, §4.7): absent or
 * empty text is "not given" (undefined), numbers and booleans are read from their text, then the
 * value is checked as {@link coerceInput} checks a body field. A parameter repeated
 * (`?postId=a&postId=b`) or written as an object (`?postId[x]=1`) is refused. Throws
 * `BAD_USER_INPUT` naming the parameter.
 */
export function coerceQueryParameter(field: InputFieldType, value: unknown, name: string): unknown {
  if (value === undefined || value === '') return coerceInput(field, undefined, name);
  if (typeof value !== 'string') {
    throw new FailureError({
      code: 'BAD_USER_INPUT',
      message: `invalid ${name}: give it once, as text`,
      issues: [{ path: name, message: `expected one value, got ${describe(value)}` }],
    });
  }
  return coerceInput(field, fromQueryText(field.type, value), name);
}
