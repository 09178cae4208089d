// The analysis threads: page analysis is CPU-bound and a crafted page can take tens of seconds, so
// it runs off the event loop (piscina worker threads) where a slow page delays only its own audit,
// under a time budget per task, behind a bounded queue.
//
// Why our own queue and slots in front of piscina, rather than its `maxQueue`: piscina parks a task
// that carries an AbortSignal (every task here: the budget and the client's disconnect both abort
// through one) in an unbounded side queue that `maxQueue` does not count (piscina 5.3,
// `_returnUndistributedTask`), so its bound would never answer. Here at most `threads` tasks are in
// piscina at once and the rest wait in our FIFO, whose length is the setting.
//
// Why the budget starts on the thread's `started` message, not when piscina gets the task: with a
// free slot a task still waits for a thread to be spawned (lazily, or to replace one stopped for its
// budget), and a new thread first loads the analysis modules: hundreds of milliseconds, more on a
// busy machine. That is not the page's cost; counted against it, a small page queued behind a
// slow one could be timed out. The worker posts `started` as the task begins (worker.ts).
//
// The budget is measured in wall-clock time from that start (a thread's CPU time is not observable
// per task through piscina); on a loaded machine a page gets less CPU within it.
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { PageTooComplexError } from '../page.ts';
import type { TaskKind, TaskOf, TaskOutcome, TaskResults } from './tasks.ts';
import type { WorkerTask } from './worker.ts';

export interface AnalysisPoolOptions {
  /** Analysis threads, and tasks running at once. */
  threads: number;
  /** Audits that may wait for a thread; one more is refused (503). */
  queue: number;
  /** A task's time in its thread, from its start; over it the thread is stopped and replaced. */
  timeoutMs: number;
  /**
   * The threads' entry module (worker.ts). Tests name a module that wraps it with a task that never
   * ends, since every real page is bounded (the cascade's budget) and the pool's limits need one
   * that outlasts them.
   */
  workerFile?: string;
  /** An idle thread is ended after this long (a new one loads the analysis modules again). */
  idleTimeoutMs?: number;
  /**
   * A thread's failure that no task is waiting on (a task's own failure rejects that task). piscina
   * emits it as an 'error' event, which would end the process had it no listener.
   */
  onError?: (error: unknown) => void;
}

/** Every thread is busy and the queue is full: the route answers 503 with Retry-After. */
export class AnalysisQueueFullError extends Error {
  /** Within one budget every running task has ended, answered or stopped. */
  readonly retryAfterSeconds: number;
  constructor(timeoutMs: number) {
    super('analysis queue full');
    this.name = 'AnalysisQueueFullError';
    this.retryAfterSeconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  }
}

/** The task ran longer than its budget: its thread was stopped. The route answers 422. */
export class AnalysisTimeoutError extends Error {
  /** The operator log's reason. */
  readonly reason = 'too complex';
  readonly budgetMs: number;
  constructor(budgetMs: number) {
    super(`analysis took longer than ${budgetMs} ms`);
    this.name = 'AnalysisTimeoutError';
    this.budgetMs = budgetMs;
  }
}

/** The caller's signal aborted (its client went away): the task left the queue, or its thread was stopped. */
export class AnalysisAbandonedError extends Error {
  /** `queued`: it never ran; `running`: its thread was stopped and replaced. */
  readonly stage: 'queued' | 'running';
  constructor(stage: 'queued' | 'running') {
    super(`analysis cancelled while ${stage}`);
    this.name = 'AnalysisAbandonedError';
    this.stage = stage;
  }
}

export interface AnalysisPoolStats {
  threads: number;
  /** Tasks holding a slot: running, or handed to a thread that has not started them yet. */
  active: number;
  /** Tasks a thread has started (their budget is running). */
  running: number;
  queued: number;
  completed: number;
  timedOut: number;
  cancelled: { queued: number; running: number };
  /** Tasks refused because the queue was full. */
  refused: number;
}

export interface RunOptions {
  /** Aborts the task: it leaves the queue, or its thread is stopped. */
  signal?: AbortSignal | undefined;
  /**
   * The second task of an audit whose first already ran (after its network step): it goes to the
   * head of the queue and is never refused, so an admitted audit is not turned away halfway.
   */
  continuation?: boolean;
}

interface Waiter {
  start(): void;
  cancel(error: Error): void;
}

const WORKER = new URL('./worker.ts', import.meta.url).href;

export class AnalysisPool {
  readonly options: Readonly<AnalysisPoolOptions>;
  #piscina: Piscina<WorkerTask, TaskOutcome> | undefined;
  /** Slots held. */
  #active = 0;
  /** Tasks started in a thread. */
  #started = 0;
  /** Continuations (an admitted audit's second task), served first, in order. */
  readonly #continuing: Waiter[] = [];
  /** New audits' tasks, in order. */
  readonly #waiting: Waiter[] = [];
  #closed = false;
  readonly #counts = { completed: 0, timedOut: 0, cancelledQueued: 0, cancelledRunning: 0, refused: 0 };

  constructor(options: AnalysisPoolOptions) {
    this.options = { ...options };
  }

  stats(): AnalysisPoolStats {
    const c = this.#counts;
    return {
      threads: this.#piscina?.threads.length ?? 0,
      active: this.#active,
      running: this.#started,
      queued: this.#queued(),
      completed: c.completed,
      timedOut: c.timedOut,
      cancelled: { queued: c.cancelledQueued, running: c.cancelledRunning },
      refused: c.refused,
    };
  }

  /**
   * Throws AnalysisQueueFullError when a new audit would be refused now: checked before its crawl,
   * so an overloaded service spends no fetch on it. (It is checked again when the task is submitted.)
   */
  assertRoom(): void {
    if (this.#active >= this.options.threads && this.#queued() >= this.options.queue) this.#refuse();
  }

  #queued(): number {
    return this.#continuing.length + this.#waiting.length;
  }

  #refuse(): never {
    this.#counts.refused++;
    throw new AnalysisQueueFullError(this.options.timeoutMs);
  }

  /**
   * Runs one task in a thread. Rejects with AnalysisQueueFullError, AnalysisTimeoutError,
   * AnalysisAbandonedError, PageTooComplexError (the worker's marker, thrown again here), or the
   * worker's unexpected error.
   */
  async run<K extends TaskKind>(task: TaskOf<K>, options: RunOptions = {}): Promise<TaskResults[K]> {
    await this.#admit(options);
    try {
      return (await this.#execute(task, options.signal)) as TaskResults[K];
    } finally {
      this.#release();
    }
  }

  /**
   * Refuses what still waits and stops every thread. The app calls it on close, after Fastify has
   * let the requests in flight end (each analysis within its budget).
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of [...this.#continuing.splice(0), ...this.#waiting.splice(0)]) waiter.cancel(new Error('analysis pool closed'));
    await this.#piscina?.destroy();
  }

  /** Resolves when the task holds a slot. (Synchronous up to the wait: the checks and the count agree.) */
  async #admit({ signal, continuation = false }: RunOptions): Promise<void> {
    if (this.#closed) throw new Error('analysis pool closed');
    if (signal?.aborted) {
      this.#counts.cancelledQueued++;
      throw new AnalysisAbandonedError('queued');
    }
    if (this.#active < this.options.threads) {
      this.#active++;
      return;
    }
    if (!continuation && this.#queued() >= this.options.queue) this.#refuse();
    const queue = continuation ? this.#continuing : this.#waiting;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at === -1) return;
        queue.splice(at, 1);
        this.#counts.cancelledQueued++;
        reject(new AnalysisAbandonedError('queued'));
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        cancel: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  #release(): void {
    const next = this.#continuing.shift() ?? this.#waiting.shift();
    if (next === undefined) this.#active--;
    else next.start();
  }

  async #execute(task: TaskOf<TaskKind>, signal: AbortSignal | undefined): Promise<unknown> {
    // One controller stops the task for either cause: piscina removes a task not yet in a thread
    // and terminates the thread of one that is (then spawns a replacement on demand).
    const stop = new AbortController();
    let stage = 'queued' as 'queued' | 'running';
    let timedOut = false;
    let budget: NodeJS.Timeout | undefined;
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      stage = 'running';
      this.#started++;
      budget = setTimeout(() => {
        timedOut = true;
        stop.abort();
      }, this.options.timeoutMs);
    });
    try {
      if (signal?.aborted) stop.abort();
      const outcome = await this.#threads().run({ task, started: port2 }, { signal: stop.signal, transferList: [port2] });
      if (!outcome.ok) throw new PageTooComplexError();
      this.#counts.completed++;
      return outcome.value;
    } catch (error) {
      if (timedOut) {
        this.#counts.timedOut++;
        throw new AnalysisTimeoutError(this.options.timeoutMs);
      }
      if (stop.signal.aborted) {
        if (stage === 'queued') this.#counts.cancelledQueued++;
        else this.#counts.cancelledRunning++;
        throw new AnalysisAbandonedError(stage);
      }
      throw error;
    } finally {
      if (stage === 'running') this.#started--;
      clearTimeout(budget);
      signal?.removeEventListener('abort', onAbort);
      port1.close();
    }
  }

  /** Created on first use, so an app that audits nothing (most tests) starts no thread. */
  #threads(): Piscina<WorkerTask, TaskOutcome> {
    if (this.#piscina) return this.#piscina;
    this.#piscina = new Piscina<WorkerTask, TaskOutcome>({
      filename: this.options.workerFile ?? WORKER,
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs ?? 60_000,
      concurrentTasksPerWorker: 1,
    });
    // Once, at creation (it was added at every task: one listener more per audit).
    this.#piscina.on('error', (error: unknown) => this.options.onError?.(error));
    return this.#piscina;
  }
}
