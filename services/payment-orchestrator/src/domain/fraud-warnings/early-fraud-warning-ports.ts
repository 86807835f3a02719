import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { EarlyFraudWarning, FraudType } from './early-fraud-warning';

/** GET /early-fraud-warnings filters, combinable (every one given must hold). */
export interface EarlyFraudWarningSearch {
  payment_id?: string;
  fraud_type?: FraudType;
  actionable?: boolean;
}

/** Every query takes the scope (merchant and mode) first: a warning of another merchant or mode is not found. */
export interface EarlyFraudWarningRepository {
  get(scope: Scope, id: string): Promise<EarlyFraudWarning | null>;
  list(scope: Scope, filters: EarlyFraudWarningSearch, page: PageRequest): Promise<Page<EarlyFraudWarning>>;
  /** The warning a processor account reported under this reference (unique per account). */
  findByProcessorReference(scope: Scope, processor: string, processorReference: string): Promise<EarlyFraudWarning | null>;
  /** A second warning with the same processor and reference fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, warning: Omit<EarlyFraudWarning, 'version'>): EarlyFraudWarning;
  /** Compare-and-set on the version the warning was read with. */
  update(uow: UnitOfWork, warning: EarlyFraudWarning): EarlyFraudWarning;
}
