/**
 * Reads the rules of an `@Abilities()` class statically (docs/behaviour.md §5.5): every
 * `can(action, subject, fields?, conditions?)` and `cannot(…)` call in its body, with the
 * actions, subjects, fields and condition keys it names, so rules can refuse a misspelt one at
 * build time instead of a request denying or failing at run time. Nothing is evaluated: a string
 * literal is read as written, a local `const` is followed to its initializer, a spread of a local
 * object constant (`{ ...inOrg, authorId }`) contributes its keys, and any other value counts as
 * each member of its string-literal type. What is none of these is recorded as unreadable.
 */
import type { AbilityCondition, AbilityName, DeclaredAbilityRule } from '../model/declarations.js';
import type { ProjectLayout } from './project.js';
import { spanOf } from './references.js';
import { type ClassDeclaration, Node, SyntaxKind, VariableDeclarationKind } from './ts-morph.js';

type Unreadable = DeclaredAbilityRule['unreadable'][number];

/** The names of the builder's methods that add a rule. */
const RULE_METHODS = new Set(['can', 'cannot']);

/** How many `const` hops are followed before a value counts as unreadable (a cycle stops there). */
const MAX_DEPTH = 8;

/**
 * The `can`/`cannot` calls in `cls`, in source order.
 *
 * Takes the layout (for spans) and the `@Abilities()` class; returns one rule per call. A call
 * counts when its callee is named `can` or `cannot` and is a parameter of, or destructured from a
 * parameter of, a function (the callback handed to `defineAbility`) — never a method of another
 * object. Never throws.
 */
export function readAbilityRules(layout: ProjectLayout, cls: ClassDeclaration): DeclaredAbilityRule[] {
  const owner = cls.getName() ?? '(anonymous class)';
  const rules: DeclaredAbilityRule[] = [];
  for (const call of cls.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const method = ruleMethod(call.getExpression());
    if (method === undefined) continue;
    const reader = new RuleReader(layout);
    const [action, subject, third, fourth] = call.getArguments();
    const actions = action ? reader.names(action, 'action') : [];
    const subjects = subject ? reader.names(subject, 'subject') : [];
    let fields: AbilityName[] | undefined;
    let conditions: AbilityCondition | undefined;
    if (third !== undefined) {
      if (fourth !== undefined || reader.isFieldList(third)) fields = reader.names(third, 'field');
      else conditions = reader.condition(third, 0);
    }
    if (fourth !== undefined) conditions = reader.condition(fourth, 0);
    rules.push({
      owner,
      inverted: method === 'cannot',
      actions,
      subjects,
      fields,
      conditions,
      unreadable: reader.unreadable,
      span: spanOf(layout, call.getExpression()),
    });
  }
  return rules;
}

/** `can`/`cannot` when `callee` is the rule builder's method of that name (see {@link readAbilityRules}). */
function ruleMethod(callee: Node): string | undefined {
  if (Node.isIdentifier(callee)) {
    if (!RULE_METHODS.has(callee.getText())) return undefined;
    const declaration = callee.getSymbol()?.getDeclarations()[0];
    return declaration && (Node.isBindingElement(declaration) || Node.isParameterDeclaration(declaration)) ? callee.getText() : undefined;
  }
  if (Node.isPropertyAccessExpression(callee) && RULE_METHODS.has(callee.getName())) {
    const target = callee.getExpression();
    const declaration = Node.isIdentifier(target) ? target.getSymbol()?.getDeclarations()[0] : undefined;
    return declaration && Node.isParameterDeclaration(declaration) ? callee.getName() : undefined;
  }
  return undefined;
}

/** The initializer of the local `const` an identifier names, if it is one. */
function constInitializer(node: Node): Node | undefined {
  if (!Node.isIdentifier(node)) return undefined;
  const declaration = node.getSymbol()?.getDeclarations()[0];
  if (!declaration || !Node.isVariableDeclaration(declaration)) return undefined;
  const list = declaration.getParent();
  if (!Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== VariableDeclarationKind.Const) return undefined;
  return declaration.getInitializer();
}

/** Whether an identifier names a variable declared with a type (`const actions: Action[] = …`). */
function hasDeclaredType(node: Node): boolean {
  const declaration = Node.isIdentifier(node) ? node.getSymbol()?.getDeclarations()[0] : undefined;
  return declaration !== undefined && Node.isVariableDeclaration(declaration) && declaration.getTypeNode() !== undefined;
}

/** The type written on the variable or parameter an identifier names, if any. */
function declaredTypeNode(node: Node): Node | undefined {
  const declaration = Node.isIdentifier(node) ? node.getSymbol()?.getDeclarations()[0] : undefined;
  return declaration && (Node.isVariableDeclaration(declaration) || Node.isParameterDeclaration(declaration))
    ? declaration.getTypeNode()
    : undefined;
}

/**
 * The strings a value or type node stands for when its type is a string literal or a union of
 * them, or an array of such (read from the written `T[]`: without the standard library the
 * checker knows no `Array`); undefined otherwise.
 */
function stringLiterals(node: Node | undefined): string[] | undefined {
  if (node === undefined) return undefined;
  if (Node.isArrayTypeNode(node)) return stringLiterals(node.getElementTypeNode());
  if (Node.isTypeOperatorTypeNode(node)) return stringLiterals(node.getTypeNode());
  const type = node.getType();
  const members = (type.isUnion() ? type.getUnionTypes() : [type])
    .map((member) => member.getArrayElementType() ?? member)
    .flatMap((member) => (member.isUnion() ? member.getUnionTypes() : [member]));
  return members.length > 0 && members.every((member) => member.isStringLiteral())
    ? members.map((member) => member.getLiteralValue() as string)
    : undefined;
}

/** Strips `(…)`, `as …`, `satisfies …` and `!`. */
function unwrap(node: Node): Node {
  let current = node;
  while (
    Node.isParenthesizedExpression(current) ||
    Node.isAsExpression(current) ||
    Node.isSatisfiesExpression(current) ||
    Node.isNonNullExpression(current)
  )
    current = current.getExpression();
  return current;
}

/** Reads the arguments of one rule call, collecting what cannot be read. */
class RuleReader {
  readonly unreadable: Unreadable[] = [];

  constructor(private readonly layout: ProjectLayout) {}

  /** Whether the third argument is the fields list (an array or a string), not the conditions. */
  isFieldList(node: Node, depth = 0): boolean {
    const value = unwrap(node);
    if (Node.isArrayLiteralExpression(value) || Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) return true;
    if (Node.isObjectLiteralExpression(value)) return false;
    const initializer = depth < MAX_DEPTH ? constInitializer(value) : undefined;
    if (initializer) return this.isFieldList(initializer, depth + 1);
    const type = value.getType();
    return (
      type.isArray() ||
      type.isString() ||
      type.isStringLiteral() ||
      (type.isUnion() && type.getUnionTypes().every((member) => member.isStringLiteral()))
    );
  }

  /** The strings `node` stands for: a literal, an array of them, a `const`, or a string-literal (union) type. */
  names(node: Node, what: Unreadable['what'], depth = 0): AbilityName[] {
    const value = unwrap(node);
    const span = spanOf(this.layout, value);
    if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) return [{ value: value.getLiteralValue(), span }];
    if (Node.isArrayLiteralExpression(value)) return value.getElements().flatMap((element) => this.names(element, what, depth));
    // A const is followed to its initializer unless it declares its type: then the type is what it holds.
    const initializer = depth < MAX_DEPTH && !hasDeclaredType(value) ? constInitializer(value) : undefined;
    if (initializer) return this.names(initializer, what, depth + 1);
    const literals = stringLiterals(declaredTypeNode(value)) ?? stringLiterals(value);
    if (literals) return literals.map((literal) => ({ value: literal, span }));
    this.unreadable.push({ what, text: value.getText(), span });
    return [];
  }

  /** The keys of a condition object: an object literal (spreads of local constants followed) or a `const` naming one. */
  condition(node: Node, depth: number): AbilityCondition {
    const value = unwrap(node);
    const initializer = depth < MAX_DEPTH ? constInitializer(value) : undefined;
    if (initializer) return this.condition(initializer, depth + 1);
    if (!Node.isObjectLiteralExpression(value)) {
      this.unreadable.push({ what: 'condition', text: value.getText(), span: spanOf(this.layout, value) });
      return { keys: [] };
    }
    const keys: AbilityCondition['keys'][number][] = [];
    for (const property of value.getProperties()) {
      if (Node.isSpreadAssignment(property)) {
        keys.push(...this.condition(property.getExpression(), depth + 1).keys);
      } else if (Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)) {
        const nameNode = property.getNameNode();
        if (Node.isComputedPropertyName(nameNode)) {
          this.unreadable.push({ what: 'condition', text: nameNode.getText(), span: spanOf(this.layout, nameNode) });
          continue;
        }
        const initializer = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
        keys.push({
          key: property.getName().replace(/^['"]|['"]$/g, ''),
          span: spanOf(this.layout, nameNode),
          values: initializer ? this.nested(initializer, depth) : [],
        });
      } else {
        this.unreadable.push({ what: 'condition', text: property.getText(), span: spanOf(this.layout, property) });
      }
    }
    return { keys };
  }

  /** The condition objects a key's value holds: an object literal, or an array of them (`OR: [...]`); a scalar holds none. */
  private nested(node: Node, depth: number): AbilityCondition[] {
    const value = unwrap(node);
    if (Node.isObjectLiteralExpression(value)) return [this.condition(value, depth + 1)];
    if (Node.isArrayLiteralExpression(value)) return value.getElements().flatMap((element) => this.nested(element, depth + 1));
    const initializer = depth < MAX_DEPTH ? constInitializer(value) : undefined;
    return initializer ? this.nested(initializer, depth + 1) : [];
  }
}
