import type { AuditRecord } from '@uas/domain';
import { connectionOf, type SqliteDb } from './sqlite-db';

/**
 * What a group does with the audit events its writes record: held in memory while they run (a
 * write that throws drops its own), then chained in the group's transaction. Held events are
 * dropped at a write's savepoint only: a write that undid part of itself and went on (a nested
 * savepoint whose error it caught) would keep that part's events; no write of a group does.
 */
export interface GroupAudit {
  /** From now until release, the events recorded on `tx`'s connection go to the list answered. */
  hold(tx: SqliteDb): AuditRecord[];
  release(tx: SqliteDb): void;
  /** Chains, in `tx`, the events waiting for their place, then `held` in their order. */
  chain(tx: SqliteDb, held: readonly AuditRecord[]): void;
  /** Leaves `held` waiting for the sequencer's next pass. */
  wait(tx: SqliteDb, held: readonly AuditRecord[]): void;
}

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
  private savepoint: ReturnType<typeof prepareSavepoint> | undefined;

  constructor(
    private readonly db: SqliteDb,
    private readonly audit: GroupAudit,
  ) {}

  /** Runs `work` (synchronous, as better-sqlite3 requires) in the next group; answers after it commits. */
  run<T>(work: (tx: SqliteDb) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queued = this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (queued === 1) setImmediate(() => this.commit());
    });
  }

  /**
   * Runs `work` in a savepoint of the group's transaction `tx`: one that throws is undone alone,
   * with the audit events it recorded.
   */
  private alone(
    tx: SqliteDb,
    work: (tx: SqliteDb) => unknown,
    held: AuditRecord[],
  ): { value: unknown } | { error: unknown } {
    const savepoint = (this.savepoint ??= prepareSavepoint(this.db));
    const recorded = held.length;
    savepoint.begin.run();
    try {
      const value = work(tx);
      savepoint.release.run();
      return { value };
    } catch (error) {
      savepoint.undo.run();
      savepoint.release.run();
      held.length = recorded;
      return { error };
    }
  }

  private commit(): void {
    const group = this.queue;
    this.queue = [];
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    try {
      this.db.transaction(
        (tx) => {
          const held = this.audit.hold(tx);
          try {
            for (const { work } of group) outcomes.push(this.alone(tx, work, held));
            // Should chaining fail, the events wait for the sequencer's next pass instead; should
            // that fail too, the whole group does: no write commits without its event.
            const chained = this.alone(tx, (chaining) => this.audit.chain(chaining, held), []);
            if ('error' in chained) this.audit.wait(tx, held);
          } finally {
            this.audit.release(tx);
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

/**
 * The savepoint each write of a group runs in, its three statements prepared once: Drizzle's
 * nested transaction compiles its SAVEPOINT and RELEASE again on every call, which cost about what
 * a session's own insert does.
 */
function prepareSavepoint(db: SqliteDb) {
  const connection = connectionOf(db);
  return {
    begin: connection.prepare('savepoint group_write'),
    release: connection.prepare('release group_write'),
    undo: connection.prepare('rollback to group_write'),
  };
}
