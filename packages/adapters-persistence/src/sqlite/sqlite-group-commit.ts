import type { SqliteDb } from './sqlite-db';

interface Queued {
  work: (tx: SqliteDb) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes that arrive together commit together. Each SQLite commit waits for the disk (an fsync of
 * the WAL, `synchronous = FULL`), and better-sqlite3 waits on the event loop's thread: one commit
 * per write made a PATCH cost an fsync and the whole server stand still for it (issue 29). Here
 * the writes queued during one turn of the event loop run in one IMMEDIATE transaction, each in a
 * savepoint of its own, so one that throws is undone alone and answers its own error; the others
 * answer once the one commit, and its one fsync, is done. Nothing answers before its commit. The
 * group's audit events are chained in that same transaction: no pass of the sequencer, and no
 * commit of its own, is needed for them.
 */
export class SqliteGroupCommit {
  private queue: Queued[] = [];

  /** `finish` runs last in each group's transaction, after every write of it (chaining their audit events). */
  constructor(
    private readonly db: SqliteDb,
    private readonly finish: (tx: SqliteDb) => void,
  ) {}

  /** Runs `work` (synchronous, as better-sqlite3 requires) in the next group; answers after it commits. */
  run<T>(work: (tx: SqliteDb) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queued = this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (queued === 1) setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const group = this.queue;
    this.queue = [];
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    try {
      this.db.transaction(
        (tx) => {
          for (const { work } of group) {
            try {
              outcomes.push({ value: tx.transaction((savepoint) => work(savepoint)) });
            } catch (error) {
              outcomes.push({ error });
            }
          }
          try {
            tx.transaction((savepoint) => this.finish(savepoint));
          } catch {
            // The writes stand without it: what it would have done (chaining) is done by the next tick.
          }
        },
        { behavior: 'immediate' },
      );
    } catch (error) {
      // The group could not begin or commit (the database busy past its timeout, the disk full):
      // none of its writes happened.
      for (const { reject } of group) reject(error);
      return;
    }
    group.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index]!;
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.value);
    });
  }
}
