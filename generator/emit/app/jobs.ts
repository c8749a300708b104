/**
 * Emits what the jobs, schedules and listeners transports run (docs/behaviour.md §10), one
 * file each and only for what the application declares: `jobs.ts` (every mounted queue's job
 * schemas and payload types, and a handler per `@Process` method), `schedules.ts` (a task per
 * `@Cron` method, with its setting) and `listeners.ts` (one per `@OnEvent` method). Each entry names
 * the declaration it runs and where it is written, so a job reads from `queue.add(…)` through
 * `generated/jobs.ts` to its handler.
 */
import { providerVariable, queueJobsType, queueSchemasConstant, queueVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The `jobs.ts` file, or undefined when no mounted processor exists. */
export function emitJobs(context: EmitContext): GeneratedFile | undefined {
  const { app } = context;
  const queues = app.mounted.queues;
  if (queues.length === 0) return undefined;
  const file = new TypeScriptFile(
    'jobs.ts',
    context,
    'Job queues (docs/behaviour.md §10.1): the payload schema of every job, by queue and job name, and the\nhandler each job runs. A service enqueues with `queue.add(name, payload)` on an injected\n`Queue<…Jobs>`; the payload is checked against the schema here, stored, and handed to the handler.',
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
    writeDoc(w, [`The payload each job of queue \`${queue.name}\` takes: inject it as \`@InjectQueue(${quote(queue.name)}) queue: Queue<${queueJobsType(queue.name)}>\`.`]);
    w.writeLine(`export type ${queueJobsType(queue.name)} = ${jobsOf}<typeof ${queueSchemasConstant(queue.name)}>;`);
    w.blankLine();
  }
  const definition = imports.type('runtime/transports/jobs/index.ts', 'JobsDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  const defineHandler = imports.value('runtime/transports/jobs/index.ts', 'defineJobHandler');
  const processors = [...new Set(queues.flatMap((queue) => queue.processors.map((processor) => processor.name)))].sort();
  writeDoc(w, ['The queues services inject and the handler of every job, for the jobs transport.']);
  w.write(`export function createJobs(container: ${container}): ${definition}`).block(() => {
    w.writeLine(`const { ${[...processors.map(providerVariable), ...queues.map((queue) => queueVariable(queue.name))].sort().join(', ')} } = container;`);
    w.write('return ').inlineBlock(() => {
      w.writeLine(`queues: [${queues.map((queue) => queueVariable(queue.name)).join(', ')}],`);
      w.write('handlers: [').indent(() => {
        for (const queue of queues) {
          for (const [job, handler] of [...queue.handlerByJob].sort(([a], [b]) => a.localeCompare(b))) {
            writeDoc(w, [`${queue.name} / ${job} → ${handler.processor}.${handler.methodName} (${handler.file}:${handler.span.line}), unscoped.`]);
            const call = `${providerVariable(handler.processor)}.${handler.methodName}(payload${handler.takesJob ? ', job' : ''})`;
            w.write(`${defineHandler}(`).inlineBlock(() => {
              w.writeLine(`queue: ${quote(queue.name)},`);
              w.writeLine(`job: ${quote(job)},`);
              w.writeLine(`handler: ${quote(`${handler.processor}.${handler.methodName}`)},`);
              w.writeLine(`schema: ${queueSchemasConstant(queue.name)}[${quote(job)}],`);
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

/** The `schedules.ts` file, or undefined when no mounted provider declares a scheduled task. */
export function emitSchedules(context: EmitContext): GeneratedFile | undefined {
  const tasks = context.app.mounted.cronTasks;
  if (tasks.length === 0) return undefined;
  const file = new TypeScriptFile(
    'schedules.ts',
    context,
    'Scheduled tasks (docs/behaviour.md §10.2): every `@Cron` method with its expression and the setting that\noverrides it (`off`, or another expression). Each tick runs once for the whole server, unscoped.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/transports/schedules/index.ts', 'ScheduledTaskDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  writeDoc(w, ['The setting of every scheduled task (`APP_CRON__<TASK>`), checked at boot.']);
  w.writeLine(`export const CRON_SETTINGS = [${tasks.map((task) => quote(task.setting)).join(', ')}] as const;`);
  w.blankLine();
  writeDoc(w, ['Every scheduled task, for the schedules transport.']);
  w.write(`export function createSchedules(container: ${container}): readonly ${definition}[]`).block(() => {
    w.writeLine(`const { ${[...new Set(tasks.map((task) => providerVariable(task.owner)))].sort().join(', ')} } = container;`);
    w.write('return [').indent(() => {
      for (const task of tasks) {
        writeDoc(w, [`${task.name}: '${task.expression ?? ''}' → ${task.owner}.${task.methodName} (${task.file}:${task.span.line}); ${task.setting} overrides it.`]);
        w.write('').inlineBlock(() => {
          w.writeLine(`name: ${quote(task.name)},`);
          w.writeLine(`setting: ${quote(task.setting)},`);
          w.writeLine(`expression: ${quote(task.expression ?? '')},`);
          w.writeLine(`handler: ${quote(`${task.owner}.${task.methodName}`)},`);
          w.writeLine(`run: (${task.takesContext ? 'task' : ''}) => ${providerVariable(task.owner)}.${task.methodName}(${task.takesContext ? 'task' : ''}),`);
        });
        w.write(',').newLine();
      }
    });
    w.writeLine('];');
  });
  return file.render();
}

/** The `listeners.ts` file, or undefined when no mounted provider declares a listener. */
export function emitListeners(context: EmitContext): GeneratedFile | undefined {
  const listeners = context.app.mounted.listeners;
  if (listeners.length === 0) return undefined;
  const file = new TypeScriptFile(
    'listeners.ts',
    context,
    'In-process listeners (docs/behaviour.md §10.3): every `@OnEvent` method and the event it runs for, in the\nprocess that published it, after the write committed, unscoped; an error is logged, never returned.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/transports/listeners/index.ts', 'ListenerDefinition');
  const container = imports.type(`${context.outputDir}/container.ts`, 'Container');
  writeDoc(w, ['Every listener, for the listeners transport.']);
  w.write(`export function createListeners(container: ${container}): readonly ${definition}[]`).block(() => {
    w.writeLine(`const { ${[...new Set(listeners.map((listener) => providerVariable(listener.owner)))].sort().join(', ')} } = container;`);
    w.write('return [').indent(() => {
      for (const listener of listeners) {
        writeDoc(w, [`${listener.event ?? ''} → ${listener.owner}.${listener.methodName} (${listener.file}:${listener.span.line}).`]);
        const owner = imports.type(listener.file, listener.owner);
        const payload = listener.payloadTyped ? `payload as Parameters<${owner}['${listener.methodName}']>[0]` : 'payload';
        const call = `${providerVariable(listener.owner)}.${listener.methodName}(${listener.takesPayload ? payload : ''})`;
        w.writeLine(`{ event: ${quote(listener.event ?? '')}, handler: ${quote(`${listener.owner}.${listener.methodName}`)}, handle: (${listener.takesPayload ? 'payload' : ''}) => ${call} },`);
      }
    });
    w.writeLine('];');
  });
  return file.render();
}
