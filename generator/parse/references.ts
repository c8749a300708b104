/**
 * Name resolution for declarations: which exported class, alias or value an identifier means,
 * following imports (also imports of files that do not exist yet, such as generated
 * repositories on a first run), and reading decorators and their arguments into plain values
 * (model/declarations.ts) — without evaluating anything.
 */
import path from 'node:path';
import { type Decorator, type Identifier, Node, SyntaxKind } from './ts-morph.js';
import type { DeclaredDecorator, DeclaredProperty, DeclaredValue } from '../model/declarations.js';
import { type DocSections, type DocText, docText } from '../model/docs.js';
import type { SourceRef, SourceSpan, WrittenDeprecation } from '../model/types.js';
import { type ProjectLayout, resolveModuleFile } from './project.js';

/** The declaration an identifier resolves to, when it is in the project. */
export interface ResolvedReference {
  readonly ref: SourceRef;
  readonly declaration: Node | undefined;
}

/**
 * Relative, `/`-separated path of an absolute file path. Files of the runtime library are named
 * `runtime/…` wherever the library sits, and by their source's name (`.ts`) when what is read is
 * its declaration file (`.d.ts`, an installed package), so the model does not depend on the layout.
 */
export function relativeFile(layout: ProjectLayout, absolute: string): string {
  if (absolute.startsWith(layout.runtimeDir + path.sep))
    return `runtime/${path
      .relative(layout.runtimeDir, absolute)
      .split(path.sep)
      .join('/')
      .replace(/\.d\.ts$/, '.ts')}`;
  return path.relative(layout.root, absolute).split(path.sep).join('/');
}

/** The span of a node: file:line:col of its first token, and its length on that line. */
export function spanOf(layout: ProjectLayout, node: Node): SourceSpan {
  const sourceFile = node.getSourceFile();
  const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
  const length = node.getText().split('\n', 1)[0]?.length ?? 0;
  return { file: relativeFile(layout, sourceFile.getFilePath()), line, column, length: Math.max(1, length) };
}

/**
 * The docstrings of a node for each reader (model/docs.ts): the summary section, `@remarks` and
 * `@privateRemarks` of every JSDoc block on it, in order.
 */
export function docOf(node: Node): DocText {
  if (!Node.isJSDocable(node)) return { doc: undefined, description: undefined };
  const sections = node.getJsDocs().map((jsDoc): DocSections => {
    const tagText = (name: string): string | undefined => {
      const texts = jsDoc.getTags().flatMap((tag) => (tag.getTagName() === name ? [tag.getCommentText()?.trim() ?? ''] : []));
      return texts.length > 0 ? texts.join('\n\n') : undefined;
    };
    return { summary: jsDoc.getDescription().trim(), remarks: tagText('remarks'), privateRemarks: tagText('privateRemarks') };
  });
  return docText(sections);
}

/**
 * The `@deprecated` tags of a node's docstrings (docs/guide/declaring.md "Deprecating a field"):
 * their texts as written, trimmed, paragraph after paragraph (empty when no tag gives a reason),
 * and the span of the first tag; undefined when it has none. `resolve/` decides what it means.
 */
export function deprecationTagOf(layout: ProjectLayout, node: Node): WrittenDeprecation | undefined {
  if (!Node.isJSDocable(node)) return undefined;
  const tags = node.getJsDocs().flatMap((jsDoc) => jsDoc.getTags().filter((tag) => tag.getTagName() === 'deprecated'));
  const [first] = tags;
  if (!first) return undefined;
  const reason = tags
    .map((tag) => tag.getCommentText()?.trim() ?? '')
    .filter((text) => text.length > 0)
    .join('\n\n');
  return { reason, span: spanOf(layout, first) };
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
    if (declaration) {
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
      const absolute = this.moduleFile(sourceFile.getFilePath(), specifier);
      if (absolute === undefined) continue;
      for (const named of importDeclaration.getNamedImports()) {
        const local = named.getAliasNode()?.getText() ?? named.getName();
        if (local !== name) continue;
        return { ref: { file: relativeFile(this.layout, absolute), exportName: named.getName() }, declaration: undefined };
      }
    }
    return undefined;
  }

  /**
   * The file a module specifier names, as a path: this package by name (its entry), or a relative
   * path — also one that does not exist yet (a generated repository before the first run).
   */
  private moduleFile(from: string, specifier: string): string | undefined {
    if (!specifier.startsWith('.')) return resolveModuleFile(from, specifier);
    return path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
  }

  /**
   * The runtime decorator a decorator node applies (its exported name in `runtime/declarations/decorators.ts`,
   * whatever local alias it was imported under, also through a namespace import: `@rt.Column()`),
   * or undefined for any other decorator. A name the runtime does not export, and a name declared
   * nowhere, is returned as written, so it can be refused rather than ignored.
   */
  decoratorName(decorator: Decorator): string | undefined {
    const expression = decorator.getCallExpression()?.getExpression() ?? decorator.getExpression();
    if (Node.isPropertyAccessExpression(expression)) {
      const namespace = expression.getExpression();
      return Node.isIdentifier(namespace) && DECORATOR_MODULES.has(this.namespaceFile(namespace) ?? '') ? expression.getName() : undefined;
    }
    if (!Node.isIdentifier(expression)) return undefined;
    const resolved = this.resolve(expression);
    // A name declared nowhere (`@Colum()` with nothing imported): a misspelling of ours, refused
    // rather than ignored — ignoring it would drop a column from the model.
    if (!resolved) return expression.getSymbol() === undefined ? expression.getText() : undefined;
    // A name imported from the runtime that the runtime does not export (`import { Colum } from
    // 'resource-service'`): refused as written, for the same reason.
    if (resolved.declaration === undefined && resolved.ref.file.startsWith('runtime/')) return resolved.ref.exportName;
    return resolved.ref.file === DECORATORS_FILE ? resolved.ref.exportName : undefined;
  }

  /** The file a namespace import (`import * as name from '…'`) names, relative to the project root. */
  private namespaceFile(identifier: Identifier): string | undefined {
    const sourceFile = identifier.getSourceFile();
    for (const importDeclaration of sourceFile.getImportDeclarations()) {
      if (importDeclaration.getNamespaceImport()?.getText() !== identifier.getText()) continue;
      const absolute = this.moduleFile(sourceFile.getFilePath(), importDeclaration.getModuleSpecifierValue());
      return absolute === undefined ? undefined : relativeFile(this.layout, absolute);
    }
    return undefined;
  }
}

/** Where the decorators the generator reads are declared. */
const DECORATORS_FILE = 'runtime/declarations/decorators.ts';

/** The modules whose namespace (`import * as rs from 'resource-service'`) holds the decorators: their own, and the package's entry. */
const DECORATOR_MODULES = new Set([DECORATORS_FILE, 'runtime/index.ts']);

/**
 * Reads decorators and their arguments into plain values: names resolved to where they are
 * declared, literals as values, anything else as `other` with its text (for the message).
 */
export class DecoratorReader {
  constructor(
    private readonly layout: ProjectLayout,
    private readonly resolver: ReferenceResolver,
  ) {}

  /** The runtime decorators among `decorators`, in source order (others are not ours to read). */
  read(decorators: readonly Decorator[]): DeclaredDecorator[] {
    return decorators.flatMap((decorator): DeclaredDecorator[] => {
      const name = this.resolver.decoratorName(decorator);
      if (name === undefined) return [];
      const call = decorator.getCallExpression();
      const callee = call?.getExpression() ?? decorator.getExpression();
      const nameNode = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee;
      return [
        {
          name,
          arguments: decorator.getArguments().map((argument) => this.value(argument)),
          span: spanOf(this.layout, nameNode),
          called: call !== undefined,
        },
      ];
    });
  }

  /** An expression used as a decorator argument, as a {@link DeclaredValue}. */
  value(node: Node): DeclaredValue {
    const span = spanOf(this.layout, node);
    if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))
      return { kind: 'string', value: node.getLiteralValue(), span };
    if (Node.isNumericLiteral(node)) return { kind: 'number', value: node.getLiteralValue(), span };
    if (
      Node.isPrefixUnaryExpression(node) &&
      node.getOperatorToken() === SyntaxKind.MinusToken &&
      Node.isNumericLiteral(node.getOperand())
    ) {
      return { kind: 'number', value: -Number(node.getOperand().getText()), span };
    }
    if (Node.isTrueLiteral(node)) return { kind: 'boolean', value: true, span };
    if (Node.isFalseLiteral(node)) return { kind: 'boolean', value: false, span };
    if (Node.isArrayLiteralExpression(node))
      return { kind: 'array', items: node.getElements().map((element) => this.value(element)), span };
    if (Node.isObjectLiteralExpression(node))
      return { kind: 'object', properties: node.getProperties().map((property) => this.property(property)), span };
    if (Node.isArrowFunction(node)) {
      const body = node.getBody();
      return Node.isExpression(body) ? { kind: 'thunk', body: this.value(body), span } : { kind: 'other', text: node.getText(), span };
    }
    if (Node.isIdentifier(node)) return { kind: 'reference', name: node.getText(), ref: this.resolver.resolve(node)?.ref, span };
    if (Node.isNewExpression(node))
      return {
        kind: 'new',
        callee: this.value(node.getExpression()),
        args: node.getArguments().map((argument) => this.value(argument)),
        span,
      };
    if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node))
      return this.value(node.getExpression());
    return { kind: 'other', text: node.getText(), span };
  }

  private property(property: Node): DeclaredProperty {
    if (Node.isPropertyAssignment(property)) {
      return {
        key: property.getName().replace(/^['"]|['"]$/g, ''),
        keySpan: spanOf(this.layout, property.getNameNode()),
        value: this.value(property.getInitializerOrThrow()),
      };
    }
    if (Node.isShorthandPropertyAssignment(property)) {
      return { key: property.getName(), keySpan: spanOf(this.layout, property.getNameNode()), value: this.value(property.getNameNode()) };
    }
    const span = spanOf(this.layout, property);
    return { key: undefined, keySpan: span, value: { kind: 'other', text: property.getText(), span } };
  }
}
