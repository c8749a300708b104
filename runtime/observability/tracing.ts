/**
 * Traces (docs/behaviour.md §12.3): what the rest of the runtime asks of OpenTelemetry, behind an
 * interface so that nothing loads the SDK unless `APP_OTEL__ENDPOINT` is set. With it unset
 * `startTracing` (./index.ts) answers undefined and every caller skips its span: no SDK module is
 * loaded and no span object is made. The implementation is ./otel.ts.
 */
import type { IncomingMessage } from 'node:http';

/** The kind of a span, as OpenTelemetry names them. */
export type SpanKindName = 'server' | 'client' | 'internal' | 'consumer';

/** What a span is called and carries. */
export interface SpanSpec {
  readonly name: string;
  readonly kind?: SpanKindName;
  readonly attributes?: Readonly<Record<string, string | number | boolean>>;
}

/** The span of one HTTP request, open while it is served. */
export interface RequestSpan {
  /**
   * The trace context with this span active (an OpenTelemetry `Context`, opaque here). It becomes
   * the active one when the request context is seeded (`RequestObservation.traceContext`,
   * runtime/auth/context.ts `runInContext`).
   */
  readonly context: unknown;
  /**
   * Whether the span is recorded: false when its trace is not sampled (`APP_OTEL__SAMPLE` below 1,
   * or a caller's `traceparent` saying so), and then {@link end} does nothing, so its attributes
   * need not be gathered.
   */
  readonly recording: boolean;
  /** Names the span by its route template, records the status, and ends it. */
  end(route: string, status: number, attributes: Readonly<Record<string, string | number | boolean>>): void;
}

/** The tracer of one server (./otel.ts). */
export interface Tracing {
  /** Opens the span of a request, the child of the `traceparent` it carries (W3C trace context), if any. */
  request(request: IncomingMessage): RequestSpan;
  /**
   * Runs `fn` in a new span, the child of the active one; ends it when `fn` returns, or when the
   * promise it returns settles (a rejection marks the span as an error). Returns what `fn` returns.
   */
  inSpan<T>(spec: SpanSpec, fn: () => T): T;
  /**
   * Whether a span asked for now would be recorded: false inside a trace that is not sampled, where
   * {@link inSpan} runs `fn` and makes no span, so a caller can skip building the span's name and
   * attributes. True outside any trace (the sampler decides a new one).
   */
  recording(): boolean;
  /** The W3C `traceparent` of the active span, to carry into work started from it (a job); undefined outside any. */
  traceparent(): string | undefined;
  /** Runs `fn` in a new span whose parent is `traceparent` (a job enqueued by a traced request), or a new trace. */
  continueTrace<T>(traceparent: string | undefined, spec: SpanSpec, fn: () => T): T;
  /** Sends the spans not yet exported and stops. */
  shutdown(): Promise<void>;
}
