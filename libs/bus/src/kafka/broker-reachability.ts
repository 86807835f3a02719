import type { Logger } from '@vaultline/logger';
import type { BusHealth } from '../bus.port';
import { describeKafkaError } from './kafka-errors';

/**
 * Whether the brokers answer, as the bus sees it: unknown ("starting") until the first probe answers; then
 * every request that reached no broker marks them unreachable and every answer clears it. While they are
 * unreachable (or not yet reached) a probe asks every `probeEveryMs`, so the state clears when the brokers are
 * back even if nothing else asks them (an empty outbox, consumers waiting for kafkajs's restart).
 */
export class BrokerReachability {
  private state: NonNullable<BusHealth['unreachable']> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private readonly firstAnswer: Promise<boolean>;
  private settleFirst: (reachable: boolean) => void = () => undefined;

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly logger: Logger,
    private readonly probeEveryMs = 2_000,
  ) {
    this.state = { since: new Date().toISOString(), error: 'not connected yet', starting: true };
    this.firstAnswer = new Promise((resolve) => (this.settleFirst = resolve));
    this.schedule(0);
  }

  /** Resolves with the first probe's outcome (true: the brokers answered). */
  firstProbe(): Promise<boolean> {
    return this.firstAnswer;
  }

  /** A broker answered. */
  answered(): void {
    if (!this.state) return;
    if (!this.state.starting) this.logger.info({ unreachable_since: this.state.since }, 'kafka answers again');
    this.state = undefined;
    clearTimeout(this.timer);
    this.settleFirst(true);
  }

  /** A request reached no broker. */
  unreachable(error: unknown): void {
    const description = describeKafkaError(error);
    if (this.state) {
      this.state.error = description;
    } else {
      this.state = { since: new Date().toISOString(), error: description, starting: false };
      this.logger.warn({ error: description }, 'kafka unreachable; the outbox keeps the events until it answers');
      this.schedule(this.probeEveryMs);
    }
  }

  report(): BusHealth['unreachable'] {
    return this.state ? { ...this.state } : undefined;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.settleFirst(false);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runProbe(), delayMs);
    this.timer.unref();
  }

  private async runProbe(): Promise<void> {
    if (this.closed || !this.state || this.probing) return;
    this.probing = true;
    try {
      await this.probe();
      this.answered();
    } catch (error) {
      if (this.state) this.state.error = describeKafkaError(error);
      this.settleFirst(false);
    } finally {
      this.probing = false;
      if (this.state && !this.closed) this.schedule(this.probeEveryMs);
    }
  }
}
