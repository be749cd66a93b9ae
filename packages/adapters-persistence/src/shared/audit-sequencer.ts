/**
 * Events a pass moves into the chain at most, in one transaction: a pass stays short, and a
 * backlog is worked off in several.
 */
export const SEQUENCE_BATCH = 1000;

/**
 * How often each process looks for events waiting for their place: with the length of a pass,
 * the longest an event stays outside the chain, which is what verification cannot yet vouch for.
 */
const SEQUENCE_INTERVAL_MS = 100;

/** One dialect's way of chaining the events waiting in audit_pending. */
export interface ChainingPass {
  /** Whether any event waits: a read with no lock, so an idle tick costs one small query. */
  hasPending(): Promise<boolean>;
  /**
   * Moves up to SEQUENCE_BATCH waiting events into the chain, one pass at a time across every
   * process (a lock held for the pass's transaction). `wait`: wait for the lock; otherwise give
   * up at once when another pass holds it (it chains them, or the next tick will). Answers how
   * many it chained.
   */
  chain(wait: boolean): Promise<number>;
}

/**
 * Chains committed events in batches. A write inserts its event unchained in its own transaction
 * (nothing shared is locked, so writes never queue behind each other); a tick every
 * SEQUENCE_INTERVAL_MS, and any reader of the chain through `sequence()`, moves them into it.
 * An event takes the next place when a pass reads it, so an event committed later always comes
 * later in the chain: no late commit can need a place already given.
 */
export class AuditSequencer {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly pass: ChainingPass) {}

  /** Chains every event committed before the call, by this process's pass or another's. */
  sequence(): Promise<void> {
    if (this.running === undefined) return this.run(true);
    // The pass under way may have read the waiting events before the caller's commit.
    this.queued ??= this.running
      .catch(() => {})
      .then(() => {
        this.queued = undefined;
        return this.sequence();
      });
    return this.queued;
  }

  /** Starts the ticks (once the schema is known to be there); they keep no process alive. */
  start(): void {
    this.timer ??= setInterval(() => {
      // A failed pass changes nothing: its events still wait, and the next tick takes them.
      if (this.running === undefined) this.run(false).catch(() => {});
    }, SEQUENCE_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Stops the ticks and chains what waits, so a process that ends (a CLI command, an instance
   * shutting down) leaves none of its events to the next one. A failure leaves them waiting.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sequence().catch(() => {});
  }

  private run(wait: boolean): Promise<void> {
    const running = (async () => {
      if (!(await this.pass.hasPending())) return;
      while ((await this.pass.chain(wait)) === SEQUENCE_BATCH);
    })().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}
