import type { UnitOfWork } from '@vaultline/store';
import type { Clock, FlowMatrixRepository } from '../domain/ports';
import type { FlowMatrix } from '../domain/flows/flow-matrix';

export interface FlowMatrixCacheOptions {
  /** How long a merchant's current matrix is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Most merchants kept; the least recently loaded one goes first. */
  maxMerchants?: number;
}

interface Entry {
  matrix: FlowMatrix | null;
  expiresAt: number;
}

/**
 * The current flow matrix of a merchant, kept in memory for a short time: every payment creation and
 * every card arrival reads it, and it changes rarely. A PUT through this process drops the merchant's
 * entry at once (before and after its commit); one by another process is seen at the latest `ttlMs`
 * later. A matrix whose load overlapped a write is returned but never kept. Stored matrices are
 * immutable versions, so one object serves every reader.
 */
export class CachedFlowMatrixRepository implements FlowMatrixRepository {
  private readonly entries = new Map<string, Entry>();
  private invalidations = 0;

  constructor(
    private readonly inner: FlowMatrixRepository,
    private readonly clock: Clock,
    private readonly options: FlowMatrixCacheOptions,
  ) {}

  async current(merchantId: string): Promise<FlowMatrix | null> {
    if (this.options.ttlMs <= 0) return this.inner.current(merchantId);
    const now = this.clock.now().getTime();
    const cached = this.entries.get(merchantId);
    if (cached && cached.expiresAt > now) return cached.matrix;
    const seen = this.invalidations;
    const matrix = await this.inner.current(merchantId);
    if (this.invalidations === seen) this.keep(merchantId, { matrix, expiresAt: now + this.options.ttlMs });
    return matrix;
  }

  insert(uow: UnitOfWork, merchantId: string, matrix: FlowMatrix): void {
    this.invalidate(merchantId);
    uow.afterCommit(() => this.invalidate(merchantId));
    this.inner.insert(uow, merchantId, matrix);
  }

  private invalidate(merchantId: string): void {
    this.entries.delete(merchantId);
    this.invalidations++;
  }

  private keep(merchantId: string, entry: Entry): void {
    this.entries.delete(merchantId);
    this.entries.set(merchantId, entry);
    if (this.entries.size > (this.options.maxMerchants ?? 10_000)) this.entries.delete(this.entries.keys().next().value as string);
  }
}
