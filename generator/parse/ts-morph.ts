/**
 * ts-morph, loaded with `require`: importing the CommonJS package from ES modules makes Node scan
 * its source for named exports first, which took much of `generate`'s start-up (BENCHMARKS.md §"Where the time goes").
 * Each value is re-exported with its type under the same name, as the package exports them.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const Node = tsMorph.Node;
export type Node = TsMorph.Node;
export const Project = tsMorph.Project;
export type Project = TsMorph.Project;
export const SyntaxKind = tsMorph.SyntaxKind;
export type SyntaxKind = TsMorph.SyntaxKind;
export const VariableDeclarationKind = tsMorph.VariableDeclarationKind;
export type { ClassDeclaration, Decorator, Identifier, MethodDeclaration, SourceFile, TypeNode } from 'ts-morph';
