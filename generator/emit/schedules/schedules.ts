/**
 * Emits `schedules.ts` for the schedules transport (docs/behaviour.md §10.2): a task per `@Cron`
 * method, with its expression and the setting that overrides it, each naming the method it runs and
 * where it is written.
 */
import { providerVariable } from '../../model/naming.js';
import type { EmitContext } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

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
        writeDoc(w, [
          `${task.name}: '${task.expression ?? ''}' → ${task.owner}.${task.methodName} (${task.file}:${task.span.line}); ${task.setting} overrides it.`,
        ]);
        w.write('').inlineBlock(() => {
          w.writeLine(`name: ${quote(task.name)},`);
          w.writeLine(`setting: ${quote(task.setting)},`);
          w.writeLine(`expression: ${quote(task.expression ?? '')},`);
          w.writeLine(`handler: ${quote(`${task.owner}.${task.methodName}`)},`);
          w.writeLine(
            `run: (${task.takesContext ? 'task' : ''}) => ${providerVariable(task.owner)}.${task.methodName}(${task.takesContext ? 'task' : ''}),`,
          );
        });
        w.write(',').newLine();
      }
    });
    w.writeLine('];');
  });
  return file.render();
}
