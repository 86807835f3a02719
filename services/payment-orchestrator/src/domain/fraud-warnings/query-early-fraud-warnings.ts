import type { Scope } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { EarlyFraudWarningNotFound, type EarlyFraudWarning } from './early-fraud-warning';
import type { EarlyFraudWarningRepository, EarlyFraudWarningSearch } from './early-fraud-warning-ports';

export type GetEarlyFraudWarning = (scope: Scope, id: string) => Promise<EarlyFraudWarning>;
export type ListEarlyFraudWarnings = (scope: Scope, filters: EarlyFraudWarningSearch, page: PageRequest) => Promise<Page<EarlyFraudWarning>>;

export function getEarlyFraudWarning({ warnings }: { warnings: EarlyFraudWarningRepository }): GetEarlyFraudWarning {
  return async (scope, id) => {
    const warning = await warnings.get(scope, id);
    if (!warning) throw new EarlyFraudWarningNotFound();
    return warning;
  };
}

export function listEarlyFraudWarnings({ warnings }: { warnings: EarlyFraudWarningRepository }): ListEarlyFraudWarnings {
  return (scope, filters, page) => warnings.list(scope, filters, page);
}
