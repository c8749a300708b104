/**
 * Job processors and their handlers (docs/behaviour.md §10.1), scheduled tasks (§10.2) and in-process
 * listeners (§10.3), resolved once: each handler's queue, job name and schema; each task's name,
 * setting and expression; each listener's event; and, for what is mounted, the queues and the
 * topics providers publish. Emitters (`generator/emit/jobs/`, `schedules/`, `listeners/`) and rules read only this.
 */
import type { DeclaredMethod } from '../model/declarations.js';
import type {
  CronTaskModel,
  JobHandlerModel,
  ListenerModel,
  ProcessorModel,
  ProviderModel,
  PublishedTopics,
  QueueModel,
} from '../model/model.js';
import { cronSetting } from '../model/naming.js';
import type { NamedClass } from './operations.js';
import { argumentAt, DecoratorSet, optionOf, stringOf } from './values.js';

/** Where the event bus is declared: its `publish` calls name the topics providers raise. */
const EVENT_BUS = { file: 'runtime/events/bus.ts', exportName: 'EventBus' } as const;

/** Whether a method's parameter declares a type narrower than `unknown`. */
function typed(method: DeclaredMethod, index: number): boolean {
  const named = method.parameters[index]?.type.named;
  return named !== undefined && (named.kind !== 'unsupported' || (named.text !== undefined && named.text !== 'unknown'));
}

/** A `@Processor(queue)` class and its `@Process(name, schema)` methods. */
export function resolveProcessor(cls: NamedClass): ProcessorModel {
  const queueArgument = argumentAt(new DecoratorSet(cls.decorators).first('Processor'), 0);
  const queue = stringOf(queueArgument);
  const handlers = cls.methods.flatMap((method): JobHandlerModel[] => {
    const decorator = new DecoratorSet(method.decorators).first('Process');
    if (!decorator) return [];
    const name = argumentAt(decorator, 0);
    const schema = argumentAt(decorator, 1);
    return [
      {
        kind: 'jobHandler',
        queue,
        job: stringOf(name),
        jobSpan: name?.span ?? decorator.span,
        processor: cls.name,
        methodName: method.name,
        file: cls.file,
        schema: schema?.kind === 'reference' ? schema.ref : undefined,
        takesJob: method.parameters.length > 1,
        span: method.span,
      },
    ];
  });
  return { kind: 'processor', name: cls.name, file: cls.file, queue, queueSpan: queueArgument?.span, handlers, span: cls.span };
}

/** The `@Cron` methods of a class. */
export function cronTasksOf(cls: NamedClass): CronTaskModel[] {
  return cls.methods.flatMap((method): CronTaskModel[] => {
    const decorator = new DecoratorSet(method.decorators).first('Cron');
    if (!decorator) return [];
    const expression = argumentAt(decorator, 0);
    const nameOption = optionOf(argumentAt(decorator, 1), 'name');
    const name = stringOf(nameOption) ?? method.name;
    return [
      {
        kind: 'cronTask',
        name,
        nameSpan: nameOption?.span,
        setting: cronSetting(name),
        expression: stringOf(expression),
        expressionSpan: expression?.span,
        owner: cls.name,
        methodName: method.name,
        file: cls.file,
        takesContext: method.parameters.length > 0,
        span: method.span,
      },
    ];
  });
}

/** The `@OnEvent` methods of a class. */
export function listenersOf(cls: NamedClass): ListenerModel[] {
  return cls.methods.flatMap((method): ListenerModel[] => {
    const decorator = new DecoratorSet(method.decorators).first('OnEvent');
    if (!decorator) return [];
    const event = argumentAt(decorator, 0);
    return [
      {
        kind: 'listener',
        event: stringOf(event),
        eventSpan: event?.span,
        owner: cls.name,
        methodName: method.name,
        file: cls.file,
        takesPayload: method.parameters.length > 0,
        payloadTyped: typed(method, 0),
        span: method.span,
      },
    ];
  });
}

/** The queues `processors` process, sorted by name, each with every handler of its processors. */
export function queuesOf(processors: readonly ProcessorModel[]): QueueModel[] {
  const byName = new Map<string, ProcessorModel[]>();
  for (const processor of processors)
    if (processor.queue !== undefined) byName.set(processor.queue, [...(byName.get(processor.queue) ?? []), processor]);
  return [...byName]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, owners]): QueueModel => {
      const handlers = owners.flatMap((processor) => processor.handlers);
      const handlerByJob = new Map<string, JobHandlerModel>();
      for (const handler of handlers)
        if (handler.job !== undefined && !handlerByJob.has(handler.job)) handlerByJob.set(handler.job, handler);
      return { kind: 'queue', name, processors: owners, handlers, handlerByJob };
    });
}

/** The topics mounted `providers` publish through an injected `EventBus` (`this.events.publish('topic', …)`). */
export function publishedTopics(providers: readonly ProviderModel[]): PublishedTopics {
  const topics = new Set<string>();
  let decidable = true;
  for (const provider of providers) {
    const buses = new Set(
      provider.dependencies
        .filter(
          (dependency) =>
            dependency.target.kind === 'builtin' &&
            dependency.target.builtin.ref.file === EVENT_BUS.file &&
            dependency.target.builtin.ref.exportName === EVENT_BUS.exportName,
        )
        .map((dependency) => dependency.parameterName),
    );
    for (const method of provider.methodByName.values()) {
      for (const call of method.calls) {
        if (call.dependency === undefined || !buses.has(call.dependency) || call.method !== 'publish') continue;
        if (call.firstArgument?.kind === 'string') topics.add(call.firstArgument.value);
        else decidable = false;
      }
    }
  }
  return { topics, decidable };
}
