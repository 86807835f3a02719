import type { Logger } from '@vaultline/logger';
import type { PruneAdminAudit } from './admin-audit';
import type { AdminRefusalLog } from './admin-refusals';

export interface AuditMaintenanceDeps {
  refusals: AdminRefusalLog;
  prune: PruneAdminAudit;
  logger: Logger;
  /** How often the gathered refusals of ended minutes are written (default 10 s). */
  flushEveryMs?: number;
  /** How often the retention runs (default hourly; also once at start). */
  pruneEveryMs?: number;
}

/**
 * The admin audit's background work: writes the gathered entries of refused requests once their minute
 * ended, and deletes the entries older than AUDIT_RETENTION_DAYS (at start, then hourly). Every gateway
 * runs one; two pruning at once delete the same entries, which is harmless. stop() writes what is still
 * gathered.
 */
export class AuditMaintenance {
  private flushTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: AuditMaintenanceDeps) {}

  start(): void {
    this.flushTimer = setInterval(() => this.run(() => this.flush()), this.deps.flushEveryMs ?? 10_000);
    this.pruneTimer = setInterval(() => this.run(() => this.prune()), this.deps.pruneEveryMs ?? 3_600_000);
    this.flushTimer.unref();
    this.pruneTimer.unref();
    this.run(() => this.prune());
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.pruneTimer);
    await this.running;
    await this.flush(true);
  }

  /** One task at a time: a slow prune does not overlap the next flush's writes. */
  private run(task: () => Promise<void>): void {
    this.running = this.running.then(task);
  }

  private async flush(all = false): Promise<void> {
    try {
      await this.deps.refusals.flush(all);
    } catch (error) {
      this.deps.logger.error({ err: error }, 'gathered admin refusals not written to the audit');
    }
  }

  private async prune(): Promise<void> {
    try {
      const deleted = await this.deps.prune();
      if (deleted > 0) this.deps.logger.info({ deleted }, 'admin audit entries older than AUDIT_RETENTION_DAYS deleted');
    } catch (error) {
      this.deps.logger.error({ err: error }, 'admin audit retention failed; tried again at the next run');
    }
  }
}
