/**
 * Reading TypeScript type annotations into wire types (docs/behaviour.md §4.1): `string` → String, `Int`
 * (runtime alias) → Int, `ID` (runtime alias) → ID, `number` → Float, `boolean` → Boolean, `Date` → DateTime, an entity
 * class → its type, a string-literal union alias → an enum, an interface or object type alias →
 * an input object; `T[]` → list; `?` / `| null` → nullable. Return types may wrap the value in
 * `Promise<…>`, `Result<…>` (failure → error entry) and `Page<…>` (a keyset page).
 *
 * Anything else becomes an `unsupported` type carrying the reason, which the `type-unsupported`
 * rule reports with its location; reading never throws.
 */
import { Node, SyntaxKind, type TypeNode } from './ts-morph.js';
import type { EnumModel, InputFieldModel, InputModel, NamedType, ReturnShape, ScalarName, TypeShape } from '../model/types.js';
import { docOf, type ReferenceResolver, spanOf } from './references.js';
import type { ProjectLayout } from './project.js';

const KEYWORD_SCALARS: Partial<Record<SyntaxKind, ScalarName>> = {
  [SyntaxKind.StringKeyword]: 'String',
  [SyntaxKind.NumberKeyword]: 'Float',
  [SyntaxKind.BooleanKeyword]: 'Boolean',
};

/** Collected named types, shared by every file of one parse. */
export interface TypeRegistry {
  readonly enums: Map<string, EnumModel>;
  readonly inputs: Map<string, InputModel>;
  /** Entity class names, keyed by `file#name`. */
  readonly entityKeys: ReadonlySet<string>;
}

const unsupported = (text: string | undefined, reason: string): NamedType => ({ kind: 'unsupported', text, reason });

/** Reads type annotations for one parse. */
export class TypeReader {
  constructor(
    private readonly layout: ProjectLayout,
    private readonly resolver: ReferenceResolver,
    private readonly registry: TypeRegistry,
  ) {}

  /** A value type (column, parameter, input field): `optional` marks a `?` declaration. */
  readShape(node: TypeNode | undefined, optional: boolean): TypeShape {
    if (!node)
      return {
        named: unsupported(undefined, 'declare the type explicitly: the generator reads it statically'),
        list: false,
        nullable: optional,
      };
    const { inner, nullable } = this.stripNullable(node);
    if (!inner)
      return { named: unsupported(node.getText(), 'a type that is only null or undefined carries no value'), list: false, nullable: true };
    const element = this.arrayElement(inner);
    if (element) {
      const item = this.stripNullable(element);
      if (item.nullable)
        return { named: unsupported(node.getText(), 'list items must not be nullable'), list: true, nullable: optional || nullable };
      return { named: this.readNamed(item.inner ?? element), list: true, nullable: optional || nullable };
    }
    return { named: this.readNamed(inner), list: false, nullable: optional || nullable };
  }

  /** An operation's return type: unwraps `Promise`, then `Result`, then `Page`. */
  readReturn(node: TypeNode | undefined): ReturnShape {
    if (!node)
      return {
        kind: 'value',
        type: { named: unsupported(undefined, 'declare the return type: the generator reads it statically'), list: false, nullable: false },
        result: false,
        promised: false,
      };
    let current: TypeNode = node;
    const promised = this.genericArgument(current, 'Promise');
    if (promised) current = promised;
    if (current.getKind() === SyntaxKind.VoidKeyword) return { kind: 'void', promised: promised !== undefined };
    const resultOf = this.runtimeGeneric(current, 'Result', 'runtime/failures/result.ts');
    if (resultOf) current = resultOf;
    const pageOf = this.runtimeGeneric(current, 'Page', 'runtime/data/keyset.ts');
    if (pageOf) return { kind: 'page', item: this.readNamed(pageOf), result: resultOf !== undefined, promised: promised !== undefined };
    const type = this.readShape(current, false);
    // A failed Result answers null plus an error entry, so the field must be nullable.
    return {
      kind: 'value',
      type: resultOf ? { ...type, nullable: true } : type,
      result: resultOf !== undefined,
      promised: promised !== undefined,
    };
  }

  /**
   * When a method returns a list (`T[]`, `Promise<T[]>`), the shape of one element, which may be
   * nullable (a batched computed field's value per parent, docs/behaviour.md §2.1); undefined when
   * it returns anything else.
   */
  readReturnElement(node: TypeNode | undefined): ReturnShape | undefined {
    if (!node) return undefined;
    const promised = this.genericArgument(node, 'Promise');
    const { inner } = this.stripNullable(promised ?? node);
    const element = inner === undefined ? undefined : this.arrayElement(inner);
    if (!element) return undefined;
    return { kind: 'value', type: this.readShape(element, false), result: false, promised: promised !== undefined };
  }

  private stripNullable(node: TypeNode): { inner: TypeNode | undefined; nullable: boolean } {
    if (Node.isParenthesizedTypeNode(node)) return this.stripNullable(node.getTypeNode());
    if (!Node.isUnionTypeNode(node)) return { inner: node, nullable: false };
    const members = node.getTypeNodes();
    const isNullish = (member: TypeNode): boolean =>
      member.getKind() === SyntaxKind.UndefinedKeyword ||
      (Node.isLiteralTypeNode(member) && member.getLiteral().getKind() === SyntaxKind.NullKeyword);
    const rest = members.filter((member) => !isNullish(member));
    const nullable = rest.length !== members.length;
    if (rest.length === 1) return { inner: rest[0], nullable };
    if (rest.length === 0) return { inner: undefined, nullable };
    return { inner: node, nullable };
  }

  private arrayElement(node: TypeNode): TypeNode | undefined {
    if (Node.isArrayTypeNode(node)) return node.getElementTypeNode();
    if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword)
      return this.arrayElement(node.getTypeNode());
    return this.genericArgument(node, 'Array') ?? this.genericArgument(node, 'ReadonlyArray');
  }

  /** `Name<T>` written as a global generic (Promise, Array): returns `T`. */
  private genericArgument(node: TypeNode, name: string): TypeNode | undefined {
    if (!Node.isTypeReference(node) || node.getTypeName().getText() !== name) return undefined;
    return node.getTypeArguments()[0];
  }

  /** `Name<T>` where Name is the runtime's export from `file`: returns `T`. */
  private runtimeGeneric(node: TypeNode, name: string, file: string): TypeNode | undefined {
    if (!Node.isTypeReference(node)) return undefined;
    const typeName = node.getTypeName();
    if (!Node.isIdentifier(typeName)) return undefined;
    const resolved = this.resolver.resolve(typeName);
    if (!resolved || resolved.ref.exportName !== name) return undefined;
    if (resolved.ref.file !== file) return undefined;
    return node.getTypeArguments()[0];
  }

  private readNamed(node: TypeNode): NamedType {
    const keyword = KEYWORD_SCALARS[node.getKind()];
    if (keyword) return { kind: 'scalar', name: keyword };
    if (Node.isUnionTypeNode(node) || Node.isLiteralTypeNode(node)) {
      return unsupported(node.getText(), "name the union with an exported type alias (type Status = 'a' | 'b') so it becomes an enum");
    }
    if (!Node.isTypeReference(node))
      return unsupported(node.getText(), 'use string, Int, number, boolean, Date, an entity, an enum alias or an interface');
    const typeName = node.getTypeName();
    if (!Node.isIdentifier(typeName)) return unsupported(node.getText(), 'qualified type names are not supported; import the type by name');
    const name = typeName.getText();
    if (name === 'Date') return { kind: 'scalar', name: 'DateTime' };
    const resolved = this.resolver.resolve(typeName);
    if (!resolved)
      return unsupported(
        name,
        `${name} is not declared in the project; use string, Int, number, boolean, Date, an entity, an enum alias or an interface declared in entities/`,
      );
    if (resolved.ref.file === 'runtime/declarations/scalars.ts' && (resolved.ref.exportName === 'Int' || resolved.ref.exportName === 'ID'))
      return { kind: 'scalar', name: resolved.ref.exportName };
    if (this.registry.entityKeys.has(`${resolved.ref.file}#${resolved.ref.exportName}`))
      return { kind: 'entity', name: resolved.ref.exportName };
    const declaration = resolved.declaration;
    if (declaration && Node.isTypeAliasDeclaration(declaration)) {
      const aliased = declaration.getTypeNodeOrThrow();
      const values = this.stringLiteralUnion(aliased);
      if (values) return this.registerEnum(declaration.getName(), values, declaration);
      if (Node.isTypeLiteral(aliased)) return this.registerInput(declaration.getName(), aliased, declaration);
      return unsupported(name, `${name} is neither a string-literal union (enum) nor an object type (input)`);
    }
    if (declaration && Node.isInterfaceDeclaration(declaration)) return this.registerInput(declaration.getName(), declaration, declaration);
    if (declaration && Node.isClassDeclaration(declaration))
      return unsupported(name, `${name} is a class but not an @Entity(); mark it @Entity() or use an interface`);
    return unsupported(name, `cannot read ${name} (declared outside the project or not a type)`);
  }

  private stringLiteralUnion(node: TypeNode): string[] | undefined {
    const members = Node.isUnionTypeNode(node) ? node.getTypeNodes() : [node];
    const values: string[] = [];
    for (const member of members) {
      if (!Node.isLiteralTypeNode(member)) return undefined;
      const literal = member.getLiteral();
      if (!Node.isStringLiteral(literal)) return undefined;
      values.push(literal.getLiteralValue());
    }
    return values;
  }

  private registerEnum(name: string, values: string[], declaration: Node): NamedType {
    if (!this.registry.enums.has(name)) {
      this.registry.enums.set(name, { kind: 'enum', name, values, ...docOf(declaration), span: spanOf(this.layout, declaration) });
    }
    return { kind: 'enum', name };
  }

  private registerInput(name: string, body: Node, declaration: Node): NamedType {
    if (this.registry.inputs.has(name)) return { kind: 'input', name };
    // Register first so a self-referencing input terminates.
    const fields: InputFieldModel[] = [];
    const model: InputModel = { kind: 'input', name, fields, ...docOf(declaration), span: spanOf(this.layout, declaration) };
    this.registry.inputs.set(name, model);
    const members = Node.isInterfaceDeclaration(body) ? body.getMembers() : Node.isTypeLiteral(body) ? body.getMembers() : [];
    for (const member of members) {
      if (!Node.isPropertySignature(member)) continue;
      fields.push({
        name: member.getName(),
        type: this.readShape(member.getTypeNode(), member.hasQuestionToken()),
        ...docOf(member),
        span: spanOf(this.layout, member),
      });
    }
    return { kind: 'input', name };
  }
}
