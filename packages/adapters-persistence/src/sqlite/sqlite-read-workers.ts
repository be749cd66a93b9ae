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
 * the fewest unanswered ones; a worker that dies after it has served is replaced. The threads
 * start with the first list, not with the service: an instance that never lists users (one that
 * serves only end users, say) does not carry their memory.
 */
export class SqliteReadWorkers {
  private readonly workers: ReadWorker[] = [];
  private nextId = 0;
  private started = false;
  private closed = false;

  constructor(
    private readonly data: ReadWorkerData,
    private readonly size: number,
  ) {}

  private spawn(): void {
    this.workers.push(
      new ReadWorker(this.data, (dead) => {
        this.workers.splice(this.workers.indexOf(dead), 1);
        if (!this.closed && dead.answered) this.spawn();
      }),
    );
  }

  list(query: UserListQuery): Promise<ListReply> {
    if (!this.started && !this.closed) {
      this.started = true;
      for (let i = 0; i < this.size; i++) this.spawn();
    }
    if (this.workers.length === 0) return Promise.reject(new ReadWorkerError('SQLITE_READ_WORKER_EXIT'));
    const target = this.workers.reduce((least, worker) => (worker.pending.size < least.pending.size ? worker : least));
    const id = this.nextId++;
    return new Promise((resolve, reject) => target.send({ id, query }, { resolve, reject }));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}
