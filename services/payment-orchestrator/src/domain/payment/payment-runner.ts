import type { Scope } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';
import type { AdvancePayment } from './advance-payment';
import type { Clock } from '@vaultline/core';
import type { PaymentRepository } from './payment-ports';
import type { NotifiedEvent } from '../processor-port/processor-port';

export interface PaymentRunnerOptions {
  payments: PaymentRepository;
  advance: AdvancePayment;
  clock: Clock;
  logger: Logger;
  /** How often the store is asked for due payments when nothing woke the runner. */
  pollIntervalMs: number;
  batchSize?: number;
}

/**
 * Runs payments whose next_run_at is due: the store is the only record of what is due, so a restart
 * loses nothing (a capture settling, a session expiring, a card that arrived just before a crash).
 * Requests and the session consumer start a payment at once (`run`) instead of waiting for the poll;
 * one payment runs at most once at a time in this process (two processes race safely: the loser's
 * compare-and-set fails).
 */
export class PaymentRunner {
  private readonly running = new Map<string, Promise<void>>();
  /** Payments whose next step falls due before the next poll: each is run again at its own time. */
  private readonly wakeUps = new Map<string, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | undefined;
  private sweepAt = 0;
  private stopped = true;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly options: PaymentRunnerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const wakeUp of this.wakeUps.values()) clearTimeout(wakeUp);
    this.wakeUps.clear();
    await this.sweeping;
    await Promise.all(this.running.values());
  }

  /**
   * Runs the payment now (and again when its next step falls due in less than a poll). `notified`: a
   * notification that just arrived for it; a run already under way reads it from the store instead.
   */
  run(scope: Scope, paymentId: string, notified?: NotifiedEvent): Promise<void> {
    const current = this.running.get(paymentId);
    if (current) return current;
    const work = this.options
      .advance(scope, paymentId, notified)
      .then((payment) => {
        const dueIn = payment?.next_run_at ? Date.parse(payment.next_run_at) - this.options.clock.now().getTime() : Infinity;
        if (dueIn < this.options.pollIntervalMs && !this.stopped) this.wakeUp(scope, paymentId, dueIn);
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error, payment_id: paymentId }, 'payment step failed; the worker retries it'))
      .finally(() => this.running.delete(paymentId));
    this.running.set(paymentId, work);
    return work;
  }

  /** Resolves once no payment is running in this process. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Every payment due now, until none is left (tests and the poll); bounded, so payments that keep failing cannot spin it. */
  async runDue(): Promise<void> {
    const limit = this.options.batchSize ?? 100;
    for (let batch = 0; batch < 20; batch++) {
      const due = (await this.options.payments.listDue(this.options.clock.now(), limit)).filter((p) => !this.running.has(p.paymentId));
      if (due.length === 0) return;
      await Promise.all(due.map((payment) => this.run(payment.scope, payment.paymentId)));
      if (due.length < limit) return;
    }
  }

  /** A timer is only a wake-up: the store still says what is due, so a lost timer costs a poll, nothing more. */
  private wakeUp(scope: Scope, paymentId: string, dueInMs: number): void {
    clearTimeout(this.wakeUps.get(paymentId));
    const timer = setTimeout(
      () => {
        this.wakeUps.delete(paymentId);
        void this.run(scope, paymentId);
      },
      Math.max(0, dueInMs),
    );
    timer.unref?.();
    this.wakeUps.set(paymentId, timer);
  }

  /** Keeps the earliest wake-up: a later request never postpones a sweep already due sooner. */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = Date.now() + Math.min(delayMs, this.options.pollIntervalMs);
    if (this.timer && this.sweepAt <= at) return;
    clearTimeout(this.timer);
    this.sweepAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep();
    }, at - Date.now());
    this.timer.unref?.();
  }

  private async sweep(): Promise<void> {
    if (this.sweeping) {
      // A sweep is under way; look again right after it, for what fell due meanwhile.
      await this.sweeping;
      this.schedule(0);
      return;
    }
    this.sweeping = this.runDue()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'due payments scan failed; retrying'))
      .finally(() => {
        this.sweeping = undefined;
      });
    await this.sweeping;
    this.schedule(this.options.pollIntervalMs);
  }
}
