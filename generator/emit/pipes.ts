/**
 * Pipe constants shared by the GraphQL, HTTP and MCP emitters (docs/behaviour.md §5.6): each piped parameter's pipes
 * are built once, at module level, and the handler runs them before the declared method.
 */
import type { ParamModel, PipeModel } from '../model/model.js';
import { pipesConstant } from '../model/naming.js';
import { type ImportSet, quote, type TypeScriptFile, writeDoc } from './writer.js';

/** `new Pipe(args)` source for a pipe, importing what it names. */
function pipeExpression(pipe: PipeModel, imports: ImportSet): string {
  const className = imports.ref(pipe.class);
  const args = pipe.args.map((argument) =>
    argument.kind === 'ref'
      ? imports.ref(argument.ref)
      : typeof argument.value === 'string'
        ? quote(argument.value)
        : String(argument.value),
  );
  return `new ${className}(${args.join(', ')})`;
}

/** A method whose piped parameters get constants: `label` names it in the docstring (`Query.user`). */
export interface PipedMethod {
  readonly owner: string;
  readonly methodName: string;
  readonly label: string;
  /** `argument` (GraphQL) or `parameter` (HTTP, MCP). */
  readonly noun: string;
  readonly params: readonly Pick<ParamModel, 'name' | 'pipes'>[];
}

/** Writes one `const <pipes>: readonly PipeTransform[]` per piped parameter, then a blank line if any. */
export function writePipeConstants(file: TypeScriptFile, methods: readonly PipedMethod[]): void {
  let wrote = false;
  for (const method of methods) {
    for (const param of method.params) {
      if (param.pipes.length === 0) continue;
      const pipe = file.imports.type('runtime/declarations/pipes.ts', 'PipeTransform');
      writeDoc(file.body, [`Pipes of ${method.noun} ${param.name} of ${method.label}.`]);
      file.body.writeLine(
        `const ${pipesConstant(method.owner, method.methodName, param.name)}: readonly ${pipe}[] = [${param.pipes.map((p) => pipeExpression(p, file.imports)).join(', ')}];`,
      );
      wrote = true;
    }
  }
  if (wrote) file.body.blankLine();
}
