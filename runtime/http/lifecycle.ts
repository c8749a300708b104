/**
 * In-flight HTTP requests, so a shutdown can wait for them (docs/decisions.md §4; docs/guide/deployment.md "Shutdown") and
 * tell keep-alive clients to go.
 */
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Counts requests in flight; {@link stop} resolves once none is left. */
export class RequestLifecycle {
  private count = 0;
  private stopping = false;
  private announced = false;
  private drained: () => void = () => undefined;

  /** Requests whose handler has not answered yet. */
  get inFlight(): number {
    return this.count;
  }

  /** The Express middleware counting each request ({@link track}). */
  middleware(): RequestHandler {
    return (_request: Request, response: Response, next: NextFunction) => {
      this.track(response);
      next();
    };
  }

  /**
   * Counts the request `response` answers. It counts until its handler has answered: when the
   * client hangs up first ('close' before 'finish'), the handler is still reading the database, so
   * it counts until it calls end(). Once stopping, every answer says `Connection: close`. Routes
   * answered before the Express chain (runtime/http/direct.ts) call this themselves.
   */
  track(response: ServerResponse): void {
    this.count++;
    let done = false;
    let answered = false;
    let gone = false;
    const settle = (): void => {
      if (done || !(answered && gone)) return;
      done = true;
      this.count--;
      if (this.count === 0) this.drained();
    };
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      answered = true;
      const result = end(...args);
      queueMicrotask(settle);
      return result;
    }) as ServerResponse['end'];
    response.once('close', () => {
      gone = true;
      settle();
    });
    if (this.stopping) response.setHeader('Connection', 'close');
  }

  /**
   * Whether the server has announced it is going (SIGTERM with `APP_HTTP__DRAIN_DELAY`, or
   * stopping): `/health` answers 503 from then on while requests are still served.
   */
  get draining(): boolean {
    return this.announced || this.stopping;
  }

  /** Announces the server is going ({@link draining}) without refusing or closing anything yet. */
  drain(): void {
    this.announced = true;
  }

  /** Marks the server as stopping; resolves once no request is in flight (at once when none is). */
  stop(): Promise<void> {
    this.stopping = true;
    return new Promise<void>((resolve) => {
      this.drained = resolve;
      if (this.count === 0) resolve();
    });
  }
}
