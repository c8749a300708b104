/**
 * Emits what the jobs transport runs (docs/behaviour.md §10.1), only when the application mounts a
 * queue, in two files: `jobs.ts`, every mounted queue's job schemas and payload types — what a
 * service that enqueues imports, so it imports nothing that imports the container — and
 * `processors.ts`, a handler per `@Process` method, which reads the container. Each entry names the
 * declaration it runs and where it is written, so a job reads from `queue.add(…)` through
 * `generated/jobs.ts` and `generated/processors.ts` to its method.
 */
import { providerVariable, queueJobsType, queueSchemasConstant, queueVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/**
 * The `jobs.ts` file, or undefined when no queue is mounted: the schemas and payload types of every
 * queue's jobs. It imports the schemas' declarations and the runtime only, never the container, so
 * a service importing its payload types closes no import cycle (the container constructs the
 * service and the queue).
 */
export function emitJobs(context: EmitContext): GeneratedFile | undefined {
  const queues = context.app.mounted.queues;
  if (queues.length === 0) return undefined;
  const file = new TypeScriptFile(
    'jobs.ts',
    context,
    'Job queues (docs/behaviour.md §10.1): the payload schema of every job, by queue and job name. A service\nenqueues with `queue.add(name, payload)` on an injected `Queue<…Jobs>`; the payload is checked against\nthe schema here, stored, and handed to the handler `processors.ts` names for it.',
  );
  const { body: w, imports } = file;
  const schemasType = imports.type('runtime/jobs/queue.ts', 'JobSchemas');
  const jobsOf = imports.type('runtime/jobs/queue.ts', 'JobsOf');
  for (const queue of queues) {
    writeDoc(w, [`The schema of each job of queue \`${queue.name}\`, by job name.`]);
    w.write(`export const ${queueSchemasConstant(queue.name)} = `).inlineBlock(() => {
      for (const [job, handler] of [...queue.handlerByJob].sort(([a], [b]) => a.localeCompare(b))) {
        if (!handler.schema) continue;
        writeDoc(w, [`${job} → ${handler.processor}.${handler.methodName} (${handler.file}:${handler.span.line}).`]);
        w.writeLine(`${quote(job)}: ${imports.ref(handler.schema)},`);
      }
    });
    w.write(` as const satisfies ${schemasType};`).newLine();
    w.blankLine();
    writeDoc(w, [
      `The payload each job of queue \`${queue.name}\` takes: inject it as \`@InjectQueue(${quote(queue.name)}) queue: Queue<${queueJobsType(queue.name)}>\`.`,
    ]);
    w.writeLine(`export type ${queueJobsType(queue.name)} = ${jobsOf}<typeof ${queueSchemasConstant(queue.name)}>;`);
    w.blankLine();
  }
  return file.render();
}

/** The `processors.ts` file, or undefined when no queue is mounted: the handler of every job, for the jobs transport. */
export function emitProcessors(context: EmitContext): GeneratedFile | undefined {
  const queues = context.app.mounted.queues;
  if (queues.length === 0) return undefined;
  const file = new TypeScriptFile(
    'processors.ts',
    context,
    'Job processors (docs/behaviour.md §10.1): the queues services inject and the `@Process` method each job\nruns, with the schema in `jobs.ts` its payload is checked against, for the jobs transport.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/transports/jobs/index.ts', 'JobsDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const defineHandler = imports.value('runtime/transports/jobs/index.ts', 'defineJobHandler');
  const processors = [...new Set(queues.flatMap((queue) => queue.processors.map((processor) => processor.name)))].sort();
  writeDoc(w, ['The queues services inject and the handler of every job, for the jobs transport.']);
  w.write(`export function createJobs(container: ${container}): ${definition}`).block(() => {
    w.writeLine(
      `const { ${[...processors.map(providerVariable), ...queues.map((queue) => queueVariable(queue.name))].sort().join(', ')} } = container;`,
    );
    w.write('return ').inlineBlock(() => {
      w.writeLine(`queues: [${queues.map((queue) => queueVariable(queue.name)).join(', ')}],`);
      w.write('handlers: [').indent(() => {
        for (const queue of queues) {
          for (const [job, handler] of [...queue.handlerByJob].sort(([a], [b]) => a.localeCompare(b))) {
            writeDoc(w, [
              `${queue.name} / ${job} → ${handler.processor}.${handler.methodName} (${handler.file}:${handler.span.line}), unscoped.`,
            ]);
            const call = `${providerVariable(handler.processor)}.${handler.methodName}(payload${handler.takesJob ? ', job' : ''})`;
            w.write(`${defineHandler}(`).inlineBlock(() => {
              w.writeLine(`queue: ${quote(queue.name)},`);
              w.writeLine(`job: ${quote(job)},`);
              w.writeLine(`handler: ${quote(`${handler.processor}.${handler.methodName}`)},`);
              w.writeLine(`schema: ${imports.value(`${context.outputDir}/jobs.ts`, queueSchemasConstant(queue.name))}[${quote(job)}],`);
              w.writeLine(`handle: (payload${handler.takesJob ? ', job' : ''}) => ${call},`);
            });
            w.write('),').newLine();
          }
        }
      });
      w.writeLine('],');
    });
    w.write(';').newLine();
  });
  return file.render();
}
