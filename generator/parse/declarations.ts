/**
 * Reads `entities/` into what was declared (model/declarations.ts; docs/architecture.md §1:
 * parse records what it read, nothing more). Walks every class carrying a runtime decorator — on
 * itself, a property, a method or a parameter — and records its decorators with their arguments
 * as plain values, its members with their declared types, JSDoc and spans, and the calls its
 * method bodies make. Nothing is defaulted, interpreted or checked here: `resolve/` decides what
 * the declarations mean and the rules report what is wrong with them. Never throws on bad
 * declarations.
 */
import type {
  DeclaredAbilityRule,
  DeclaredApp,
  DeclaredClass,
  DeclaredConstructorParameter,
  DeclaredField,
  DeclaredMethod,
  DeclaredParameter,
  MethodCallModel,
} from '../model/declarations.js';
import type { SourceSpan } from '../model/types.js';
import { readAbilityRules } from './abilities.js';
import { readImportProblems } from './imports.js';
import { type DeclarationProjectCache, loadDeclarationProject, type ProjectLayout } from './project.js';
import { DecoratorReader, deprecationTagOf, docOf, ReferenceResolver, relativeFile, spanOf } from './references.js';
import { type ClassDeclaration, type MethodDeclaration, Node, SyntaxKind } from './ts-morph.js';
import { TypeReader, type TypeRegistry } from './types.js';

/** Options of {@link parseDeclarations}. */
export interface ParseOptions {
  /** Add files in reverse order (determinism tests: output must not depend on it). */
  readonly fileOrder?: 'sorted' | 'reversed';
  /** The project of the previous run, brought up to date instead of parsing everything again (watch mode). */
  readonly cache?: DeclarationProjectCache;
}

/** Where the runtime's `runUnscoped` is declared (docs/behaviour.md §5.9): calls of it are recorded. */
const RUN_UNSCOPED = { file: 'runtime/auth/context.ts', exportName: 'runUnscoped' } as const;

/**
 * Parses every declaration under `layout.entitiesDir`.
 *
 * Takes the project layout; returns every decorated class (files sorted, classes in declaration
 * order) and the enum aliases and input interfaces met in the types it read. Pure with respect
 * to the file system content: same files, same result. Throws only when a file cannot be read.
 */
export function parseDeclarations(layout: ProjectLayout, options: ParseOptions = {}): DeclaredApp {
  const { declarationFiles } = loadDeclarationProject(layout, options.fileOrder, options.cache);
  const resolver = new ReferenceResolver(layout);
  const decorators = new DecoratorReader(layout, resolver);
  const classes = declarationFiles.flatMap((file) => file.getClasses());

  // Types name entities, so the entity classes are known before any type is read.
  const entityKeys = new Set<string>();
  const abilityRules: DeclaredAbilityRule[] = [];
  for (const cls of classes) {
    const name = cls.getName();
    const names = decorators.read(cls.getDecorators()).map((decorator) => decorator.name);
    if (name && names.includes('Entity')) entityKeys.add(`${relativeFile(layout, cls.getSourceFile().getFilePath())}#${name}`);
    if (names.includes('Abilities')) abilityRules.push(...readAbilityRules(layout, cls));
  }
  const registry: TypeRegistry = { enums: new Map(), inputs: new Map(), entityKeys };
  const reader = new ClassReader(layout, resolver, decorators, new TypeReader(layout, resolver, registry));
  return {
    abilityRules,
    importProblems: readImportProblems(layout, declarationFiles),
    classes: classes.flatMap((cls) => reader.read(cls) ?? []),
    enums: [...registry.enums.values()].sort((a, b) => a.name.localeCompare(b.name)),
    inputs: [...registry.inputs.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

class ClassReader {
  constructor(
    private readonly layout: ProjectLayout,
    private readonly resolver: ReferenceResolver,
    private readonly decorators: DecoratorReader,
    private readonly types: TypeReader,
  ) {}

  private span(node: Node): SourceSpan {
    return spanOf(this.layout, node);
  }

  /** The class, or undefined when neither it nor any member carries a runtime decorator. */
  read(cls: ClassDeclaration): DeclaredClass | undefined {
    const decorators = this.decorators.read(cls.getDecorators());
    const fields = cls.getProperties().map((property): DeclaredField => ({
      name: property.getName(),
      type: this.types.readShape(property.getTypeNode(), property.hasQuestionToken()),
      optional: property.hasQuestionToken(),
      decorators: this.decorators.read(property.getDecorators()),
      deprecated: deprecationTagOf(this.layout, property),
      ...docOf(property),
      span: this.span(property.getNameNode()),
    }));
    const constructorParameterNames = new Set((cls.getConstructors()[0]?.getParameters() ?? []).map((parameter) => parameter.getName()));
    const methods = cls.getMethods().map((method) => this.readMethod(method, constructorParameterNames));
    const constructorParameters = this.readConstructorParameters(cls);
    const decorated =
      decorators.length > 0 ||
      constructorParameters.some((parameter) => parameter.decorators.length > 0) ||
      fields.some((field) => field.decorators.length > 0) ||
      methods.some((method) => method.decorators.length > 0 || method.parameters.some((parameter) => parameter.decorators.length > 0));
    if (!decorated) return undefined;
    return {
      name: cls.getName(),
      file: relativeFile(this.layout, cls.getSourceFile().getFilePath()),
      exported: cls.isExported(),
      decorators,
      fields,
      methods,
      constructorParameters,
      ...docOf(cls),
      span: this.span(cls.getNameNode() ?? cls),
    };
  }

  private readMethod(method: MethodDeclaration, constructorParameters: ReadonlySet<string>): DeclaredMethod {
    const parameters = method.getParameters().map((parameter): DeclaredParameter => ({
      name: parameter.getName(),
      type: this.types.readShape(parameter.getTypeNode(), parameter.hasQuestionToken()),
      optional: parameter.hasQuestionToken(),
      decorators: this.decorators.read(parameter.getDecorators()),
      span: this.span(parameter.getNameNode()),
    }));
    const { calls, unscopedCalls } = this.readCalls(method, constructorParameters);
    return {
      name: method.getName(),
      parameters,
      returns: this.types.readReturn(method.getReturnTypeNode()),
      returnsEach: this.types.readReturnElement(method.getReturnTypeNode()),
      returnsText: method.getReturnTypeNode()?.getText(),
      decorators: this.decorators.read(method.getDecorators()),
      deprecated: deprecationTagOf(this.layout, method),
      hasBody: method.getBody() !== undefined,
      calls,
      unscopedCalls,
      ...docOf(method),
      span: this.span(method.getNameNode()),
    };
  }

  /**
   * The calls a method body makes that can be followed statically (`this.x.m(…)` through a
   * constructor parameter `x`, `this.m(…)`), and its calls of the runtime's `runUnscoped`. Nested
   * functions count as the method's own: a callback it passes on runs on its behalf.
   */
  private readCalls(
    method: MethodDeclaration,
    constructorParameters: ReadonlySet<string>,
  ): { calls: MethodCallModel[]; unscopedCalls: SourceSpan[] } {
    const calls: MethodCallModel[] = [];
    const unscopedCalls: SourceSpan[] = [];
    const body = method.getBody();
    if (!body) return { calls, unscopedCalls };
    for (const call of body.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      if (Node.isIdentifier(callee)) {
        const resolved = this.resolver.resolve(callee);
        if (resolved?.ref.file === RUN_UNSCOPED.file && resolved.ref.exportName === RUN_UNSCOPED.exportName)
          unscopedCalls.push(this.span(callee));
        continue;
      }
      if (!Node.isPropertyAccessExpression(callee)) continue;
      const target = callee.getExpression();
      const first = call.getArguments()[0];
      const firstArgument =
        first === undefined
          ? undefined
          : Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first)
            ? { kind: 'string' as const, value: first.getLiteralValue() }
            : { kind: 'other' as const };
      if (target.getKind() === SyntaxKind.ThisKeyword) {
        calls.push({ dependency: undefined, method: callee.getName(), firstArgument, span: this.span(callee.getNameNode()) });
      } else if (
        Node.isPropertyAccessExpression(target) &&
        target.getExpression().getKind() === SyntaxKind.ThisKeyword &&
        constructorParameters.has(target.getName())
      ) {
        calls.push({ dependency: target.getName(), method: callee.getName(), firstArgument, span: this.span(callee.getNameNode()) });
      }
    }
    return { calls, unscopedCalls };
  }

  private readConstructorParameters(cls: ClassDeclaration): DeclaredConstructorParameter[] {
    const constructor = cls.getConstructors()[0];
    if (!constructor) return [];
    return constructor.getParameters().map((parameter) => {
      const typeNode = parameter.getTypeNode();
      const typeName = typeNode && Node.isTypeReference(typeNode) ? typeNode.getTypeName() : undefined;
      const resolved = typeName && Node.isIdentifier(typeName) ? this.resolver.resolve(typeName) : undefined;
      return {
        name: parameter.getName(),
        decorators: this.decorators.read(parameter.getDecorators()),
        typeText: typeNode?.getText(),
        ref: resolved?.ref,
        span: this.span(parameter),
      };
    });
  }
}
