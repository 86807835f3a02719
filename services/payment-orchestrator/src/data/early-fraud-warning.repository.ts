import type { Scope } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork, Where } from '@vaultline/store';
import type { EarlyFraudWarning } from '../domain/fraud-warnings/early-fraud-warning';
import type { EarlyFraudWarningRepository, EarlyFraudWarningSearch } from '../domain/fraud-warnings/early-fraud-warning-ports';
import { EARLY_FRAUD_WARNINGS } from './collections';

/** Early fraud warnings of one merchant in one mode. */
export class StoreEarlyFraudWarningRepository implements EarlyFraudWarningRepository {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<EarlyFraudWarning>(EARLY_FRAUD_WARNINGS);
  }

  get(scope: Scope, id: string): Promise<EarlyFraudWarning | null> {
    return this.collection.get(scope, id);
  }

  list(scope: Scope, filters: EarlyFraudWarningSearch, page: PageRequest): Promise<Page<EarlyFraudWarning>> {
    const where: Where = {};
    if (filters.payment_id) where.payment_id = filters.payment_id;
    if (filters.fraud_type) where.fraud_type = filters.fraud_type;
    if (filters.actionable !== undefined) where.actionable = filters.actionable;
    return this.collection.list(scope, where, page);
  }

  findByProcessorReference(scope: Scope, processor: string, processorReference: string): Promise<EarlyFraudWarning | null> {
    return this.collection.findOne(scope, { processor, processor_reference: processorReference });
  }

  insert(uow: UnitOfWork, warning: Omit<EarlyFraudWarning, 'version'>): EarlyFraudWarning {
    return uow.insert<EarlyFraudWarning>(EARLY_FRAUD_WARNINGS, warning);
  }

  update(uow: UnitOfWork, warning: EarlyFraudWarning): EarlyFraudWarning {
    return uow.update<EarlyFraudWarning>(EARLY_FRAUD_WARNINGS, warning);
  }
}
