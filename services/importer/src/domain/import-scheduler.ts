import { scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import { leaseIsFree } from './import-job/import-job';
import type { RevokeImportKey } from './import-lifecycle';
import type { ImportJobRepository, ImporterLog } from './ports';
import type { RunImport } from './run-import';

export interface ImportSchedulerPorts {
  jobs: Pick<ImportJobRepository, 'listAcrossMerchants'>;
  runImport: RunImport;
  revokeImportKey: RevokeImportKey;
  clock: Clock;
  log: ImporterLog;
}

export interface ImportSchedulerSettings {
  workerId: string;
  /** How often to look for jobs to resume (expired leases) and keys left unrevoked. */
  scanIntervalMs: number;
}

/**
 * Runs import jobs in the background: a new job as soon as it is created (wake), and every
 * job left preparing or running by a process that stopped (scan at start, then periodically,
 * taking those whose lease is free). Each job runs at most once per process at a time.
 */
export class ImportScheduler {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private scanning: Promise<void> | null = null;

  constructor(
    private readonly ports: ImportSchedulerPorts,
    private readonly settings: ImportSchedulerSettings,
  ) {}

  start(): void {
    this.running = true;
    this.scanSoon();
    this.timer = setInterval(() => this.scanSoon(), this.settings.scanIntervalMs);
    this.timer.unref();
  }

  wake(scope: Scope, jobId: string): void {
    if (!this.running || this.active.has(jobId)) return;
    const controller = new AbortController();
    const done = this.ports
      .runImport(scope, jobId, controller.signal)
      .catch((error: unknown) => this.ports.log.error({ import_id: jobId, err: error }, 'import run failed'))
      .finally(() => this.active.delete(jobId));
    this.active.set(jobId, { controller, done });
  }

  /** Resolves once every job this process runs has stopped at a checkpoint and released its lease. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const { controller } of this.active.values()) controller.abort();
    await Promise.allSettled([...this.active.values()].map((run) => run.done));
    await this.scanning?.catch(() => undefined);
  }

  private scanSoon(): void {
    if (this.scanning || !this.running) return;
    this.scanning = this.scan()
      .catch((error: unknown) => this.ports.log.error({ err: error }, 'import scan failed'))
      .finally(() => (this.scanning = null));
  }

  private async scan(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const page = await this.ports.jobs.listAcrossMerchants({ states: ['preparing', 'running'] }, { limit: 100, ...(after ? { after } : {}) });
      const now = this.ports.clock.now();
      for (const job of page.items) {
        if (leaseIsFree(job, this.settings.workerId, now)) this.wake(scopeOfDocument(job), job.id);
      }
      if (!page.has_more || !page.next_cursor) break;
      after = page.next_cursor;
    }
    await this.sweepUnrevokedKeys();
  }

  private async sweepUnrevokedKeys(): Promise<void> {
    const page = await this.ports.jobs.listAcrossMerchants({ states: ['finished', 'failed'], keyNotRevoked: true }, { limit: 100 });
    for (const job of page.items) await this.ports.revokeImportKey(job);
  }
}
