/**
 * The OpenTelemetry tracer (docs/behaviour.md §12.3, docs/decisions.md §12), loaded only when
 * `APP_OTEL__ENDPOINT` is set (./tracing.ts): the SDK's tracer provider with a parent-based
 * sampler (a caller's `traceparent` is followed as it says; whether a new trace is recorded is
 * decided before the SDK is asked, `OtelTracing.recordsNewTrace`), a batching span processor and
 * the OTLP/HTTP (JSON) exporter.
 *
 * Nothing is registered globally — no global tracer provider, context manager or propagator — so
 * two servers in one process (tests) keep their own, and an application that registers its own
 * OpenTelemetry setup is not overridden. The active span's context travels beside the request
 * context, in the request's one AsyncLocalStorage (`activeTrace`, `runInTrace` of
 * ../auth/context.ts), not in a context manager of its own: a second AsyncLocalStorage, entered
 * as each request arrives, cost a point lookup traced one request in ten about a sixth of its rate
 * (docs/decisions.md §12, "One AsyncLocalStorage"). A request's span context joins it when the request context is seeded, after
 * authentication (`RequestObservation.traceContext`). The W3C trace-context propagator reads
 * `traceparent` from requests and writes it into jobs.
 */
import type { IncomingMessage } from 'node:http';
import {
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
} from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import { activeTrace, runInTrace } from '../auth/context.js';
import type { RequestSpan, SpanKindName, SpanSpec, Tracing } from './tracing.js';

/** What {@link startOtelTracing} is started with (from `APP_OTEL__*`). */
export interface OtelSettings {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces` (unless it already ends so). */
  readonly endpoint: string;
  readonly serviceName: string;
  /** The share of new traces recorded. */
  readonly sample: number;
  /** Milliseconds one export may take, its retries included; a shutdown waits at most this long for the last spans. */
  readonly exportTimeout: number;
  readonly logger: Logger;
}

const KINDS: Readonly<Record<SpanKindName, SpanKind>> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
  consumer: SpanKind.CONSUMER,
};

/** The traces URL of a collector's base URL (the convention of `OTEL_EXPORTER_OTLP_ENDPOINT`). */
function tracesUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return trimmed.endsWith('/v1/traces') ? trimmed : `${trimmed}/v1/traces`;
}

/** Whether `value` is a promise (or any thenable). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The active trace context, or the root one outside any. */
function active(): Context {
  return (activeTrace() as Context | undefined) ?? ROOT_CONTEXT;
}

/** Whether `context` has no span (a new trace would start there) or a span of a sampled trace. */
function sampledOrNone(context: Context): boolean {
  const span = trace.getSpan(context);
  return span === undefined || (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
}

const idGenerator = new RandomIdGenerator();

/**
 * The span context of a new trace this server decided not to record. Its ids are made the first
 * time something reads them — a `traceparent` carried into a job — and are then the same for every
 * reader, so a job enqueued twice from one request carries one trace; most such traces are never
 * carried anywhere, and never pay for ids.
 */
class UnsampledTrace implements SpanContext {
  readonly traceFlags = TraceFlags.NONE;
  private ids: { traceId: string; spanId: string } | undefined;

  get traceId(): string {
    return this.made().traceId;
  }

  get spanId(): string {
    return this.made().spanId;
  }

  private made(): { traceId: string; spanId: string } {
    this.ids ??= { traceId: idGenerator.generateTraceId(), spanId: idGenerator.generateSpanId() };
    return this.ids;
  }
}

/** A context whose active span is a new, unrecorded trace ({@link UnsampledTrace}). */
function unsampledTrace(): Context {
  return trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(new UnsampledTrace()));
}

/** Marks `span` as failed with `error`. */
function fail(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** The {@link Tracing} of the OpenTelemetry SDK (module docstring). */
class OtelTracing implements Tracing {
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(
    private readonly provider: BasicTracerProvider,
    private readonly tracer: Tracer,
    /** The share of new traces recorded (`APP_OTEL__SAMPLE`). */
    private readonly sample: number,
  ) {}

  /**
   * Whether a new trace (no caller's `traceparent`, no active span) is recorded: one in
   * 1/`sample`. Decided here rather than by the SDK's ratio sampler, which needs the trace's ids
   * first: a trace not recorded then costs no ids, no sampler and no SDK span ({@link UnsampledTrace}).
   * A caller's trace is followed as it says (the provider's parent-based sampler).
   */
  private recordsNewTrace(): boolean {
    return this.sample >= 1 || Math.random() < this.sample;
  }

  /** Whether work under `parent` starts a new trace ({@link recordsNewTrace}) that is not recorded. */
  private unrecordedNewTrace(parent: Context): boolean {
    return trace.getSpan(parent) === undefined && !this.recordsNewTrace();
  }

  request(request: IncomingMessage): RequestSpan {
    const parent = this.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    if (this.unrecordedNewTrace(parent)) return { context: unsampledTrace(), recording: false, end: () => undefined };
    const method = request.method ?? 'GET';
    const span = this.tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
    const context = trace.setSpan(parent, span);
    // A trace not sampled: its span (the SDK's non-recording one) carries the ids on, and nothing is ended.
    if (!span.isRecording()) return { context, recording: false, end: () => undefined };
    return {
      context,
      recording: true,
      end: (route, status, attributes) => {
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': status, ...attributes });
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  }

  inSpan<T>(spec: SpanSpec, fn: () => T): T {
    return this.runIn(active(), spec, fn);
  }

  continueTrace<T>(traceparent: string | undefined, spec: SpanSpec, fn: () => T): T {
    const parent = traceparent === undefined ? ROOT_CONTEXT : this.propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
    return this.runIn(parent, spec, fn);
  }

  /**
   * Runs `fn` in a new span, the child of `parent`'s span (module docstring of ./tracing.ts). Under a
   * span whose trace is not sampled (`APP_OTEL__SAMPLE` below 1, or a caller's `traceparent` saying
   * so) `fn` runs in the parent's context and no span is made: the parent-based sampler would not
   * record it either, and what is carried on (`traceparent()`) is the same unsampled trace.
   */
  private runIn<T>(parent: Context, spec: SpanSpec, fn: () => T): T {
    if (!sampledOrNone(parent)) return parent === activeTrace() ? fn() : runInTrace(parent, fn);
    if (this.unrecordedNewTrace(parent)) return runInTrace(unsampledTrace(), fn);
    const span = this.tracer.startSpan(
      spec.name,
      { kind: KINDS[spec.kind ?? 'internal'], ...(spec.attributes ? { attributes: spec.attributes } : {}) },
      parent,
    );
    let result: T;
    try {
      result = runInTrace(trace.setSpan(parent, span), fn);
    } catch (error) {
      fail(span, error);
      span.end();
      throw error;
    }
    if (!isThenable(result)) {
      span.end();
      return result;
    }
    result.then(
      () => span.end(),
      (error: unknown) => {
        fail(span, error);
        span.end();
      },
    );
    return result;
  }

  recording(): boolean {
    return sampledOrNone(active());
  }

  traceparent(): string | undefined {
    const context = active();
    if (trace.getSpan(context) === undefined) return undefined;
    const carrier: Record<string, string> = {};
    this.propagator.inject(context, carrier, defaultTextMapSetter);
    return carrier.traceparent;
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}

/** Starts the tracer of {@link OtelSettings}: nothing is exported until the first span ends. */
export function startOtelTracing(settings: OtelSettings): Tracing {
  const exporter = new OTLPTraceExporter({ url: tracesUrl(settings.endpoint), timeoutMillis: settings.exportTimeout });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    // A new trace reaches the SDK only once OtelTracing has decided to record it (recordsNewTrace).
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor(exporter, { exportTimeoutMillis: settings.exportTimeout })],
  });
  settings.logger.info(
    { endpoint: tracesUrl(settings.endpoint), serviceName: settings.serviceName, sample: settings.sample },
    `exporting traces to ${tracesUrl(settings.endpoint)} (OTLP/HTTP)`,
  );
  return new OtelTracing(provider, provider.getTracer('resource-service'), settings.sample);
}
