import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { UserListQuery } from '@uas/domain';
import type { ListReply } from './sqlite-user-list';

/**
 * How much of the file a connection reads through a memory map rather than read() calls into its
 * own small page cache: a deep page walks tens of megabytes of the (created, id) index, and the
 * map lets every connection share the operating system's cache of it. Address space, not memory.
 */
export const MMAP_BYTES = 1 << 30;

/**
 * A worker's young generation: V8 lets each thread's grow to 48 MiB under load and keeps it
 * after. A worker allocates little besides the rows of a page, so a small one costs a few more
 * short collections and saves tens of megabytes per thread.
 */
const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * The pool starts one thread, and another (up to its size) when every running one has spent at
 * least BUSY_SHARE_TO_GROW of the last window answering: a thread holds about 10 MiB (its heap,
 * its connection and its map of the file), and at 10,000 users one is busy a tenth to a third of
 * the time under the benchmark's lists, where a large table's deep pages fill it within a window.
 * A thread is stopped again once the others could have answered all the pool's queries of the
 * last `quietWindowsToRetire` windows (30 s) while busy less than BUSY_SHARE_TO_RETIRE each.
 */
const BUSY_SHARE_TO_GROW = 0.5;
const BUSY_SHARE_TO_RETIRE = 0.25;

/** How long a window lasts, and how many quiet ones in a row stop a thread (shorter in tests). */
interface PoolTiming {
  windowMs: number;
  quietWindowsToRetire: number;
}
const TIMING: PoolTiming = { windowMs: 1000, quietWindowsToRetire: 30 };

export interface ReadWorkerData {
  path: string;
  busyTimeoutMs: number;
  mmapBytes: number;
}
export interface ReadRequest {
  id: number;
  query: UserListQuery;
}
export type ReadReply = { id: number } & (ListReply | { failure: string });

// The worker is TypeScript, like the rest of the service: its entry loads it through tsx.
const WORKER = new URL('./sqlite-read-worker-entry.mjs', import.meta.url);

/** A failed read, described by the driver's error code only, as PersistenceError expects. */
class ReadWorkerError extends Error {
  constructor(readonly code: string) {
    super(`An SQLite read worker failed (${code}).`);
  }
}

interface Pending {
  resolve(reply: ListReply): void;
  reject(error: Error): void;
}

/** One worker thread and the requests it has not answered yet. */
class ReadWorker {
  readonly pending = new Map<number, Pending>();
  readonly worker: Worker;
  /** Whether it ever answered: one that dies before that would die again if replaced. */
  answered = false;
  /** Stopped by the pool as not needed: not to be replaced. */
  retired = false;
  private utilization: EventLoopUtilization;

  constructor(data: ReadWorkerData, onExit: (self: ReadWorker) => void) {
    this.worker = new Worker(WORKER, {
      workerData: data,
      // The process's export conditions (`source`: the workspace's TypeScript), but none of its
      // preloads: they are the process's business (a test runner's stdin watcher, say, would end
      // the thread at once).
      execArgv: process.execArgv.filter((flag) => flag.startsWith('--conditions=')),
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.worker.on('message', (reply: ReadReply) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      this.answered = true;
      if (this.pending.size === 0) this.worker.unref();
      if ('failure' in reply) pending?.reject(new ReadWorkerError(reply.failure));
      else pending?.resolve(reply);
    });
    this.worker.on('error', () => {}); // 'exit' follows, and says all there is to say
    this.worker.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new ReadWorkerError('SQLITE_READ_WORKER_EXIT'));
      this.pending.clear();
      onExit(this);
    });
    // An idle pool must not keep the process alive; one with a query under way does.
    this.worker.unref();
    this.utilization = this.worker.performance.eventLoopUtilization();
  }

  /** The share of the time since the last call that the thread spent answering. */
  busyShare(): number {
    const now = this.worker.performance.eventLoopUtilization();
    const { utilization } = this.worker.performance.eventLoopUtilization(now, this.utilization);
    this.utilization = now;
    return utilization;
  }

  send(request: ReadRequest, pending: Pending): void {
    this.pending.set(request.id, pending);
    this.worker.ref();
    this.worker.postMessage(request);
  }
}

/**
 * Runs list queries on worker threads, each with its own read-only connection: better-sqlite3
 * is synchronous, and a search or a deep page would otherwise hold the event loop (and every
 * other request, health checks and logins included) for as long as it runs. WAL lets these
 * readers run beside the writer on the event loop's connection. A query goes to the worker with
 * the fewest unanswered ones; a worker that dies after it has served is replaced. The first
 * thread starts with the first list, not with the service: an instance that never lists users
 * (one that serves only end users, say) does not carry its memory; the others start when the
 * running ones are busy (BUSY_SHARE_TO_GROW).
 */
export class SqliteReadWorkers {
  private readonly workers: ReadWorker[] = [];
  /** Threads being stopped as not needed, for close() to wait for. */
  private readonly retiring = new Set<Promise<number>>();
  private nextId = 0;
  private started = false;
  private closed = false;
  private resizing: NodeJS.Timeout | undefined;
  private quietWindows = 0;

  constructor(
    private readonly data: ReadWorkerData,
    private readonly size: number,
    private readonly timing = TIMING,
  ) {}

  /** Threads running now. */
  get threads(): number {
    return this.workers.length;
  }

  private spawn(): void {
    this.workers.push(
      new ReadWorker(this.data, (dead) => {
        const index = this.workers.indexOf(dead);
        if (index >= 0) this.workers.splice(index, 1);
        if (!this.closed && dead.answered && !dead.retired) this.spawn();
      }),
    );
  }

  list(query: UserListQuery): Promise<ListReply> {
    if (!this.started && !this.closed) {
      this.started = true;
      this.spawn();
      this.resizing = setInterval(() => this.resize(), this.timing.windowMs);
      this.resizing.unref();
    }
    if (this.workers.length === 0) return Promise.reject(new ReadWorkerError('SQLITE_READ_WORKER_EXIT'));
    const target = this.workers.reduce((least, worker) => (worker.pending.size < least.pending.size ? worker : least));
    const id = this.nextId++;
    return new Promise((resolve, reject) => target.send({ id, query }, { resolve, reject }));
  }

  /** Once a window: one thread more when all are busy, one fewer after a quiet spell. */
  private resize(): void {
    const shares = this.workers.map((worker) => worker.busyShare());
    const running = shares.length;
    if (running === 0) return;
    if (running < this.size && shares.every((share) => share >= BUSY_SHARE_TO_GROW)) {
      this.quietWindows = 0;
      this.spawn();
      return;
    }
    const total = shares.reduce((sum, share) => sum + share, 0);
    this.quietWindows = running > 1 && total < (running - 1) * BUSY_SHARE_TO_RETIRE ? this.quietWindows + 1 : 0;
    const idle = this.workers.find((worker) => worker.pending.size === 0);
    if (this.quietWindows < this.timing.quietWindowsToRetire || !idle) return;
    this.quietWindows = 0;
    this.workers.splice(this.workers.indexOf(idle), 1);
    idle.retired = true;
    const stopped = idle.worker.terminate();
    this.retiring.add(stopped);
    void stopped.finally(() => this.retiring.delete(stopped));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.resizing);
    await Promise.all([...this.workers.map(({ worker }) => worker.terminate()), ...this.retiring]);
  }
}
