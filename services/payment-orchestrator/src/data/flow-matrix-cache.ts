import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Clock } from '@vaultline/core';
import type { FlowMatrixRepository } from '../domain/flows/flow-ports';
import type { FlowMatrix } from '../domain/flows/flow-matrix';
import { PerMerchantCache, type PerMerchantCacheOptions } from './per-merchant-cache';

export type FlowMatrixCacheOptions = PerMerchantCacheOptions;

/**
 * The current flow matrix of a merchant, kept in memory for a short time (PerMerchantCache): every
 * payment creation and every card arrival reads it, and it changes rarely. Stored matrices are
 * immutable versions, so one object serves every reader.
 */
export class CachedFlowMatrixRepository implements FlowMatrixRepository {
  private readonly cache: PerMerchantCache<FlowMatrix | null>;

  constructor(
    private readonly inner: FlowMatrixRepository,
    clock: Clock,
    options: FlowMatrixCacheOptions,
  ) {
    this.cache = new PerMerchantCache(clock, options);
  }

  current(scope: Scope): Promise<FlowMatrix | null> {
    return this.cache.get(scope, () => this.inner.current(scope));
  }

  insert(uow: UnitOfWork, scope: Scope, matrix: FlowMatrix): void {
    this.cache.invalidateWith(uow, scope);
    this.inner.insert(uow, scope, matrix);
  }
}
