/**
 * Watching the declarations (docs/decisions.md §10): `generate --watch` and `npm run dev` run their
 * work once per burst of changes under `entities/`, never two at once.
 *
 * Files are watched with chokidar 4 (inotify, FSEvents or ReadDirectoryChangesW underneath; it
 * folds an editor's atomic save — write a temporary file, rename it over the original — into one
 * `change`). Only what the generator reads counts: `.ts` files other than `.d.ts` and `.test.ts`
 * (generator/parse/project.ts), and folders removed with them. A burst — an editor's save in
 * several writes, "save all", a `git checkout` — is one batch: work starts once no event has come
 * for {@link DEFAULT_QUIET} ms. Events arriving while work runs make the next batch, which starts
 * when that work ends (after its own quiet period). A batch's work that throws is reported
 * through `onError` and watching goes on: bad input never ends the loop.
 */
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';

/** Milliseconds without an event that end a burst. */
const DEFAULT_QUIET = 60;

/** One burst of changes. */
export interface ChangeBatch {
  /** The files changed, added or removed, relative to the watched folder, sorted. */
  readonly files: readonly string[];
  /** `performance.now()` when the first event of the burst arrived: latencies are measured from it. */
  readonly firstEventAt: number;
}

/** Options of {@link DeclarationWatcher}. */
export interface DeclarationWatcherOptions {
  /** The folder to watch (`entities/`). */
  readonly dir: string;
  /** Milliseconds without an event that end a burst (default {@link DEFAULT_QUIET}). */
  readonly quiet?: number;
  /** The work of one batch; batches never overlap. */
  readonly onBatch: (batch: ChangeBatch) => Promise<void>;
  /** Told when a batch's work throws (or the watcher fails); watching goes on. */
  readonly onError: (error: unknown) => void;
}

/** Whether a change to `file` (absolute) can change what the generator reads. */
function counts(file: string): boolean {
  return file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts');
}

/** Watches a folder of declarations and runs one batch of work per burst of changes (docs/decisions.md §10 "Bursts"). */
export class DeclarationWatcher {
  private watcher: FSWatcher | undefined;
  private readonly pending = new Set<string>();
  private firstEventAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  /** @param options the folder, the quiet period, the work, and where errors go */
  constructor(private readonly options: DeclarationWatcherOptions) {}

  /** Starts watching; resolves once the folder has been scanned (events after that count). */
  async start(): Promise<void> {
    const watcher = watch(this.options.dir, {
      ignoreInitial: true,
      // Skip files the generator does not read (editor swap files, `.d.ts`), never folders.
      ignored: (file, stats) => stats?.isFile() === true && !counts(file),
      // Node's own watcher, not polling: events arrive within milliseconds.
      usePolling: false,
    });
    this.watcher = watcher;
    watcher.on('all', (event, file) => {
      if (event === 'addDir') return;
      if (event !== 'unlinkDir' && !counts(file)) return;
      this.record(path.relative(this.options.dir, file).split(path.sep).join('/'));
    });
    watcher.on('error', (error) => this.options.onError(error));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Stops watching; resolves once the batch running, if any, has finished. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.watcher?.close();
    await this.running;
  }

  private record(file: string): void {
    if (this.closed) return;
    this.pending.add(file);
    this.firstEventAt ??= performance.now();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.options.quiet ?? DEFAULT_QUIET);
  }

  /** Starts the pending batch unless one runs (its end starts this one). */
  private flush(): void {
    if (this.running || this.closed || this.pending.size === 0) return;
    const batch: ChangeBatch = { files: [...this.pending].sort(), firstEventAt: this.firstEventAt ?? performance.now() };
    this.pending.clear();
    this.firstEventAt = undefined;
    this.running = this.options
      .onBatch(batch)
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => {
        this.running = undefined;
        // Changes that came while it ran: start them now unless their quiet period is still running.
        if (this.timer === undefined) this.flush();
      });
  }
}
