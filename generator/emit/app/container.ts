/**
 * Emits `container.ts`: the providers of the mounted modules, constructed once at boot with
 * their dependencies first. Dependency injection is resolved at generate time from constructor
 * parameter types, so nothing is looked up by reflection at run time.
 */
import {
  providerVariable,
  queueJobsType,
  queueSchemasConstant,
  queueVariable,
  repositoryClass,
  repositoryModule,
} from '../../model/naming.js';
import { type EmitContext, repositoryEntities } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile, writeDoc } from '../writer.js';

/** The `container.ts` file. */
export function emitContainer(context: EmitContext): GeneratedFile {
  const { app, outputDir } = context;
  const file = new TypeScriptFile(
    'container.ts',
    context,
    'The providers of every module reachable from AppModule, constructed once at boot, dependencies\nfirst. Dependency injection is resolved at generate time from constructor parameter types.',
  );
  const { body: w, imports } = file;
  const database = imports.type(`${outputDir}/database.ts`, 'Database');
  const services = imports.type('runtime/server/server.ts', 'RuntimeServices');
  const order = app.mounted.constructionOrder;
  const members: { name: string; type: string }[] = [];
  const repositories = repositoryEntities(app);
  for (const entity of repositories) {
    members.push({
      name: providerVariable(repositoryClass(entity.name)),
      type: imports.value(`${outputDir}/${repositoryModule(entity.name)}`, repositoryClass(entity.name)),
    });
  }
  const builtins = app.mounted.containerBuiltins;
  for (const builtin of builtins) members.push({ name: providerVariable(builtin.ref.exportName), type: imports.ref(builtin.ref) });
  const queues = app.mounted.queues;
  const queueClass = queues.length > 0 ? imports.value('runtime/jobs/queue.ts', 'Queue') : '';
  for (const queue of queues)
    members.push({
      name: queueVariable(queue.name),
      type: `${queueClass}<${imports.type(`${outputDir}/jobs.ts`, queueJobsType(queue.name))}>`,
    });
  for (const provider of order) members.push({ name: providerVariable(provider.name), type: imports.ref(provider.source) });

  writeDoc(w, ['Every constructed provider and repository, by variable name.']);
  w.write('export interface Container').block(() => {
    for (const member of members) w.writeLine(`readonly ${member.name}: ${member.type};`);
  });
  w.blankLine();
  writeDoc(w, ['Constructs the container on `database`, with the runtime `services` (logger, event bus).']);
  w.write(`export function createContainer(database: ${database}, services: ${services}): Container`).block(() => {
    for (const entity of repositories) {
      w.writeLine(
        `const ${providerVariable(repositoryClass(entity.name))} = new ${repositoryClass(entity.name)}(database, services.sqlRunner, services.logger);`,
      );
    }
    for (const builtin of builtins) w.writeLine(`const ${providerVariable(builtin.ref.exportName)} = new ${builtin.ref.exportName}();`);
    for (const queue of queues) {
      w.writeLine(
        `const ${queueVariable(queue.name)} = new ${queueClass}<${queueJobsType(queue.name)}>(${quote(queue.name)}, ${imports.value(`${outputDir}/jobs.ts`, queueSchemasConstant(queue.name))});`,
      );
    }
    for (const provider of order) {
      const args = provider.dependencies.map(({ target }) => {
        if (target.kind === 'provider') return providerVariable(target.provider);
        if (target.kind === 'repository') return providerVariable(repositoryClass(target.entity));
        if (target.kind === 'builtin')
          return target.builtin.constructedBy === 'services'
            ? `services.${providerVariable(target.builtin.ref.exportName)}`
            : providerVariable(target.builtin.ref.exportName);
        if (target.kind === 'queue') return queueVariable(target.queue);
        return 'undefined as never';
      });
      w.writeLine(`const ${providerVariable(provider.name)} = new ${provider.name}(${args.join(', ')});`);
    }
    w.writeLine(`return { ${members.map((member) => member.name).join(', ')} };`);
  });
  return file.render();
}
