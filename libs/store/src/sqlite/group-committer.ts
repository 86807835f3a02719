/** What a group commit says about one unit: applied, or rolled back alone with this error. */
export type UnitOutcome = { ok: true } | { ok: false; error: unknown };

/**
 * Commits one group of units in a single transaction and reports each unit's outcome in order.
 * It throws when the transaction as a whole failed (BEGIN or COMMIT): then no unit was committed.
 */
export type CommitGroup<U> = (units: readonly U[]) => UnitOutcome[];

interface Queued<U> {
  unit: U;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Most units per transaction: bounds how long one flush holds the write lock and blocks the loop. */
export const MAX_GROUP_SIZE = 256;

/**
 * Group commit. The fixed price of a SQLite commit (BEGIN/COMMIT, the WAL write and its syscalls)
 * is paid once per group instead of once per unit of work: units queued while the event loop is busy
 * elsewhere are committed together by one flush. Each caller's promise settles only after the
 * transaction holding its unit committed (or, for a unit rolled back alone, with that unit's error).
 *
 * The flush waits for `setImmediate` rather than a microtask so that commits started by every I/O
 * callback of the same poll phase (many requests, many consumed events) join one group; that costs a
 * caller at most one event-loop turn of latency.
 */
export class GroupCommitter<U> {
  private queue: Queued<U>[] = [];
  private scheduled = false;

  constructor(
    private readonly commitGroup: CommitGroup<U>,
    private readonly maxGroupSize = MAX_GROUP_SIZE,
  ) {}

  /** Queues a unit; resolves once a transaction containing it has committed. */
  commit(unit: U): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ unit, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /**
   * Commits everything queued now, in groups of at most maxGroupSize, synchronously (close() relies
   * on that). Promises settle afterwards, as microtasks, so no caller runs in the middle of a flush.
   */
  flush(): void {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxGroupSize);
      let outcomes: UnitOutcome[];
      try {
        outcomes = this.commitGroup(group.map((queued) => queued.unit));
      } catch (error) {
        for (const queued of group) queued.reject(error);
        continue;
      }
      group.forEach((queued, index) => {
        const outcome = outcomes[index];
        if (outcome?.ok) queued.resolve();
        else queued.reject(outcome ? outcome.error : new Error('group commit reported no outcome for a unit'));
      });
    }
  }
}
