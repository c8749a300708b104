/**
 * Name resolution for declarations: which exported class, alias or value an identifier means,
 * following imports (also imports of files that do not exist yet, such as generated
 * repositories on a first run), and reading decorator arguments into plain values.
 */
import path from 'node:path';
import { type Decorator, type Identifier, Node, type SourceFile, SyntaxKind } from './ts-morph.js';
import type { SourceRef, SourceSpan } from '../model/model.js';
import type { ProjectLayout } from './project.js';

/** The declaration an identifier resolves to, when it is in the project. */
export interface ResolvedReference {
  readonly ref: SourceRef;
  readonly declaration: Node | undefined;
}

/**
 * Relative, `/`-separated path of an absolute file path. Files of the runtime library are named
 * `runtime/…` wherever the library sits, so the model does not depend on the project layout.
 */
export function relativeFile(layout: ProjectLayout, absolute: string): string {
  if (absolute.startsWith(layout.runtimeDir + path.sep)) return `runtime/${path.relative(layout.runtimeDir, absolute).split(path.sep).join('/')}`;
  return path.relative(layout.root, absolute).split(path.sep).join('/');
}

/** The span (file:line:col) of a node's first token. */
export function spanOf(layout: ProjectLayout, node: Node): SourceSpan {
  const sourceFile = node.getSourceFile();
  const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
  return { file: relativeFile(layout, sourceFile.getFilePath()), line, column };
}

/** The first JSDoc description of a node, trimmed, or undefined. */
export function docOf(node: Node): string | undefined {
  if (!Node.isJSDocable(node)) return undefined;
  const text = node
    .getJsDocs()
    .map((doc) => doc.getDescription().trim())
    .filter((description) => description.length > 0)
    .join('\n\n');
  return text.length > 0 ? text : undefined;
}

/** Resolves names in declaration files. */
export class ReferenceResolver {
  constructor(private readonly layout: ProjectLayout) {}

  /**
   * Resolves `identifier` to the exported declaration it names. Follows aliases through the
   * binder; when the import target is not in the project (a generated file not written yet),
   * falls back to the import declaration's specifier. Returns undefined for globals.
   */
  resolve(identifier: Identifier): ResolvedReference | undefined {
    const symbol = identifier.getSymbol();
    const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
    const declaration = target?.getDeclarations()[0];
    if (declaration && target) {
      const file = declaration.getSourceFile().getFilePath();
      return { ref: { file: relativeFile(this.layout, file), exportName: target.getName() }, declaration };
    }
    return this.resolveThroughImport(identifier);
  }

  private resolveThroughImport(identifier: Identifier): ResolvedReference | undefined {
    const name = identifier.getText();
    const sourceFile = identifier.getSourceFile();
    for (const importDeclaration of sourceFile.getImportDeclarations()) {
      const specifier = importDeclaration.getModuleSpecifierValue();
      if (!specifier.startsWith('.')) continue;
      for (const named of importDeclaration.getNamedImports()) {
        const local = named.getAliasNode()?.getText() ?? named.getName();
        if (local !== name) continue;
        const absolute = path.resolve(path.dirname(sourceFile.getFilePath()), specifier).replace(/\.js$/, '.ts');
        return { ref: { file: relativeFile(this.layout, absolute), exportName: named.getName() }, declaration: undefined };
      }
    }
    return undefined;
  }

  /**
   * The runtime decorator a decorator node applies (its exported name in `runtime/decorators.ts`,
   * whatever local alias it was imported under), or undefined for any other decorator.
   */
  decoratorName(decorator: Decorator): string | undefined {
    const expression = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
    if (!Node.isIdentifier(expression)) return undefined;
    const resolved = this.resolve(expression);
    if (!resolved) return undefined;
    return resolved.ref.file === 'runtime/decorators.ts' ? resolved.ref.exportName : undefined;
  }
}

/** A decorator argument read as plain data. */
export type DecoratorValue =
  | { readonly kind: 'string'; readonly value: string; readonly node: Node }
  | { readonly kind: 'number'; readonly value: number; readonly node: Node }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly node: Node }
  | { readonly kind: 'array'; readonly items: readonly DecoratorValue[]; readonly node: Node }
  | { readonly kind: 'object'; readonly properties: ReadonlyMap<string, DecoratorValue>; readonly node: Node }
  | { readonly kind: 'thunk'; readonly body: DecoratorValue; readonly node: Node }
  | { readonly kind: 'identifier'; readonly identifier: Identifier; readonly node: Node }
  | { readonly kind: 'new'; readonly identifier: Identifier | undefined; readonly args: readonly DecoratorValue[]; readonly node: Node }
  | { readonly kind: 'other'; readonly node: Node };

/** Reads an expression used as a decorator argument into a {@link DecoratorValue}. */
export function readValue(node: Node): DecoratorValue {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return { kind: 'string', value: node.getLiteralValue(), node };
  if (Node.isNumericLiteral(node)) return { kind: 'number', value: node.getLiteralValue(), node };
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.MinusToken && Node.isNumericLiteral(node.getOperand())) {
    return { kind: 'number', value: -Number(node.getOperand().getText()), node };
  }
  if (Node.isTrueLiteral(node)) return { kind: 'boolean', value: true, node };
  if (Node.isFalseLiteral(node)) return { kind: 'boolean', value: false, node };
  if (Node.isArrayLiteralExpression(node)) return { kind: 'array', items: node.getElements().map(readValue), node };
  if (Node.isObjectLiteralExpression(node)) {
    const properties = new Map<string, DecoratorValue>();
    for (const property of node.getProperties()) {
      if (Node.isPropertyAssignment(property)) properties.set(property.getName().replace(/^['"]|['"]$/g, ''), readValue(property.getInitializerOrThrow()));
      else if (Node.isShorthandPropertyAssignment(property)) properties.set(property.getName(), readValue(property.getNameNode()));
      else properties.set(`<unreadable:${properties.size}>`, { kind: 'other', node: property });
    }
    return { kind: 'object', properties, node };
  }
  if (Node.isArrowFunction(node)) {
    const body = node.getBody();
    return Node.isExpression(body) ? { kind: 'thunk', body: readValue(body), node } : { kind: 'other', node };
  }
  if (Node.isIdentifier(node)) return { kind: 'identifier', identifier: node, node };
  if (Node.isNewExpression(node)) {
    const callee = node.getExpression();
    return { kind: 'new', identifier: Node.isIdentifier(callee) ? callee : undefined, args: node.getArguments().map(readValue), node };
  }
  if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node)) return readValue(node.getExpression());
  return { kind: 'other', node };
}

/** The arguments of a decorator call, read as values (empty for `@Foo` without a call). */
export function decoratorArguments(decorator: Decorator): DecoratorValue[] {
  return decorator.getArguments().map(readValue);
}

/** Finds the decorators of a node by runtime name. */
export function decoratorsByName(resolver: ReferenceResolver, decorators: readonly Decorator[]): Map<string, Decorator[]> {
  const byName = new Map<string, Decorator[]>();
  for (const decorator of decorators) {
    const name = resolver.decoratorName(decorator);
    if (!name) continue;
    const list = byName.get(name) ?? [];
    list.push(decorator);
    byName.set(name, list);
  }
  return byName;
}

/** Reads the source file of a node (for callers that only hold a node). */
export function sourceFileOf(node: Node): SourceFile {
  return node.getSourceFile();
}
