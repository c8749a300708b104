/**
 * Reads the grants an `@Abilities()` class writes (`can('create', 'Comment', { ...inOrg, authorId })`)
 * as far as they can be read without running them, for the documents (docs/behaviour.md §4.4,
 * §4.7): which fields a create rule fixes (so no caller sends them, and they are not `required` in
 * a create input) and which fields a read rule limits a role to (so an entity field another role
 * may not see is not `required` in a response). Nothing here decides anything: a grant written in
 * a way this reader cannot follow (a computed action, subject, field list or condition) makes the
 * whole reading `unknown`, and the documents then promise no more than they did without it.
 */
import type { DeclaredGrant, DeclaredGrants } from '../model/declarations.js';
import { type ClassDeclaration, Node, SyntaxKind } from './ts-morph.js';

/** Strings of a string literal or an array of them; undefined for anything else. */
function stringsOf(node: Node | undefined): string[] | undefined {
  if (node === undefined) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return [node.getLiteralValue()];
  if (!Node.isArrayLiteralExpression(node)) return undefined;
  const values: string[] = [];
  for (const element of node.getElements()) {
    if (!(Node.isStringLiteral(element) || Node.isNoSubstitutionTemplateLiteral(element))) return undefined;
    values.push(element.getLiteralValue());
  }
  return values;
}

/**
 * The keys of a conditions object literal, following spreads of `const` object literals in scope
 * (`...inOrg`); undefined when a key or a spread cannot be followed.
 */
function conditionKeysOf(node: Node, depth = 0): string[] | undefined {
  if (depth > 8) return undefined;
  if (Node.isIdentifier(node)) {
    const declaration = node.getSymbol()?.getDeclarations()[0];
    const initializer = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
    return initializer ? conditionKeysOf(initializer, depth + 1) : undefined;
  }
  if (!Node.isObjectLiteralExpression(node)) return undefined;
  const keys: string[] = [];
  for (const property of node.getProperties()) {
    if (Node.isSpreadAssignment(property)) {
      const spread = conditionKeysOf(property.getExpression(), depth + 1);
      if (spread === undefined) return undefined;
      keys.push(...spread);
    } else if (Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)) {
      const name = property.getNameNode();
      if (Node.isComputedPropertyName(name)) return undefined;
      keys.push(property.getName().replace(/^['"]|['"]$/g, ''));
    } else {
      return undefined;
    }
  }
  return keys;
}

/** One `can(…)` call as a grant, or undefined when it cannot be read. */
function grantOf(args: readonly Node[]): DeclaredGrant | undefined {
  const [actionNode, subjectNode, third, fourth] = args;
  const actions = stringsOf(actionNode);
  const subjects = stringsOf(subjectNode);
  if (!actions || !subjects || args.length > 4) return undefined;
  // can(action, subject, fields?, conditions?) or can(action, subject, conditions?)
  const fieldsNode = third !== undefined && !Node.isObjectLiteralExpression(third) && !Node.isIdentifier(third) ? third : undefined;
  const conditionsNode = fieldsNode === undefined ? third : fourth;
  const fields = fieldsNode === undefined ? undefined : stringsOf(fieldsNode);
  if (fieldsNode !== undefined && fields === undefined) return undefined;
  if (fieldsNode === undefined && fourth !== undefined) return undefined;
  const conditionKeys = conditionsNode === undefined ? [] : conditionKeysOf(conditionsNode);
  if (conditionKeys === undefined) return undefined;
  return { actions, subjects, ...(fields ? { fields } : {}), conditionKeys };
}

/**
 * The grants written in the `@Abilities()` classes `classes`: every `can(…)` call in their bodies,
 * or `unknown` when one of them (or any `cannot(…)`, which would take back what a grant gives)
 * cannot be read statically.
 */
export function readGrants(classes: readonly ClassDeclaration[]): DeclaredGrants {
  const grants: DeclaredGrant[] = [];
  for (const cls of classes) {
    for (const call of cls.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      const name = Node.isIdentifier(callee) ? callee.getText() : Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined;
      if (name === 'cannot') return { kind: 'unknown' };
      if (name !== 'can') continue;
      const grant = grantOf(call.getArguments());
      if (!grant) return { kind: 'unknown' };
      grants.push(grant);
    }
  }
  return { kind: 'read', grants };
}
