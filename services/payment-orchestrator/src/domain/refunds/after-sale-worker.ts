import type { Scope } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import type { Clock } from '@vaultline/core';
import type { RefundRepository } from './refund-ports';
import type { AdvanceRefund } from './advance-refund';

export interface AfterSaleWorkerOptions {
  refunds: RefundRepository;
  advanceRefund: AdvanceRefund;
  /** One pass over expiring authorizations and unconfirmed voids; resolves with how many it handled. */
  expireAuthorizations: (limit: number) => Promise<number>;
  clock: Clock;
  logger: Logger;
  pollIntervalMs: number;
  batchSize?: number;
}

/**
 * The background work after a sale: refunds to send or to settle, authorizations past their validity,
 * voids not confirmed yet. The store is the only record of what is due (a refund's next_run_at, a
 * payment's status and authorized_at), so a restart loses nothing; every move is a compare-and-set, so
 * two instances polling at once move each payment or refund once. Refund creation runs its refund at
 * once (`runRefund`) instead of waiting for the poll.
 */
export class AfterSaleWorker {
  private readonly running = new Map<string, Promise<void>>();
  private readonly wakeUps = new Map<string, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly options: AfterSaleWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const timer of this.wakeUps.values()) clearTimeout(timer);
    this.wakeUps.clear();
    await this.sweeping;
    await Promise.all(this.running.values());
  }

  /** Runs the refund now (and again when it falls due before the next poll); one run per refund at a time in this process. */
  runRefund(scope: Scope, refundId: string): Promise<void> {
    const current = this.running.get(refundId);
    if (current) return current;
    const work = this.options
      .advanceRefund(scope, refundId)
      .then((refund) => {
        const dueIn = refund?.next_run_at ? Date.parse(refund.next_run_at) - this.options.clock.now().getTime() : Infinity;
        if (dueIn < this.options.pollIntervalMs && !this.stopped) this.wakeUp(scope, refundId, dueIn);
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error, refund_id: refundId }, 'refund step failed; the worker retries it'))
      .finally(() => this.running.delete(refundId));
    this.running.set(refundId, work);
    return work;
  }

  /** Everything due now (tests move their clock, then call this; the poll calls it too). */
  async runDue(): Promise<void> {
    const limit = this.options.batchSize ?? 100;
    await this.options.expireAuthorizations(limit);
    for (let batch = 0; batch < 20; batch++) {
      const due = (await this.options.refunds.listDue(this.options.clock.now(), limit)).filter((r) => !this.running.has(r.refundId));
      if (due.length === 0) return;
      await Promise.all(due.map((refund) => this.runRefund(refund.scope, refund.refundId)));
      if (due.length < limit) return;
    }
  }

  /** Resolves once no refund is running in this process. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private wakeUp(scope: Scope, refundId: string, dueInMs: number): void {
    clearTimeout(this.wakeUps.get(refundId));
    const timer = setTimeout(
      () => {
        this.wakeUps.delete(refundId);
        void this.runRefund(scope, refundId);
      },
      Math.max(0, dueInMs),
    );
    timer.unref?.();
    this.wakeUps.set(refundId, timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.runDue()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'after-sale scan failed; retrying'))
        .finally(() => {
          this.sweeping = undefined;
          this.schedule();
        });
    }, this.options.pollIntervalMs);
    this.timer.unref?.();
  }
}
