import type { Router } from 'express';
import { isUuid } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope, scopeOfRequest } from '@vaultline/http';
import { EarlyFraudWarningNotFound, type EarlyFraudWarning } from '../domain/fraud-warnings/early-fraud-warning';
import type { EarlyFraudWarningSearch } from '../domain/fraud-warnings/early-fraud-warning-ports';
import type { GetEarlyFraudWarning, ListEarlyFraudWarnings } from '../domain/fraud-warnings/query-early-fraud-warnings';
import { EARLY_FRAUD_WARNING_FILTERS, earlyFraudWarningSearchQuery } from './dispute.schemas';
import { filtersOf } from './payment.schemas';

export interface EarlyFraudWarningUseCases {
  getEarlyFraudWarning: GetEarlyFraudWarning;
  listEarlyFraudWarnings: ListEarlyFraudWarnings;
}

/** What a merchant sees of an early fraud warning (Stripe's shape): nothing of the reporting account. */
function toEarlyFraudWarningView(warning: EarlyFraudWarning): Record<string, unknown> {
  return {
    id: warning.id,
    object: 'early_fraud_warning',
    payment_id: warning.payment_id,
    fraud_type: warning.fraud_type,
    actionable: warning.actionable,
    processor_reference: warning.processor_reference,
    livemode: warning.mode === 'live',
    created_at: warning.created_at,
    updated_at: warning.updated_at,
  };
}

/** Issuers' fraud reports: read-only (nothing to answer; refunding the payment is what heads a dispute off). */
export function earlyFraudWarningRoutes(router: Router, useCases: EarlyFraudWarningUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.get('/early-fraud-warnings', merchant, async (req, res) => {
    const page = parsePageQuery(req.query);
    const filters = parseInput(earlyFraudWarningSearchQuery, filtersOf(req.query, EARLY_FRAUD_WARNING_FILTERS)) as EarlyFraudWarningSearch;
    res.json(listResponse(await useCases.listEarlyFraudWarnings(scopeOfRequest(req), filters, page), toEarlyFraudWarningView));
  });

  router.get('/early-fraud-warnings/:early_fraud_warning_id', merchant, async (req, res) => {
    const id = String(req.params.early_fraud_warning_id);
    if (!isUuid(id)) throw new EarlyFraudWarningNotFound();
    res.json(toEarlyFraudWarningView(await useCases.getEarlyFraudWarning(scopeOfRequest(req), id)));
  });
}
