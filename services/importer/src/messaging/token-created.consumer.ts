import { isUuid } from '@vaultline/core';
import type { EventHandler, RawEvent } from '@vaultline/bus';
import { scopeOfEvent } from '@vaultline/contracts';
import type { AccountForOutcome } from '../domain/import-lifecycle';

export const TOKEN_CREATED_GROUP = 'importer.token-created';

/**
 * token.created from /cde-import carrying one of our job ids as correlation_id counts that
 * payment method as imported (or updated), and as without security code when the vault stored none. It commits in its own unit of work: the per-job
 * uniqueness of business keys makes a redelivered or repeated event count once.
 */
export function tokenCreatedConsumer(accountForOutcome: AccountForOutcome): EventHandler<'token.created'> {
  return async (event) => {
    const { source, correlation_id: correlationId, business_key: businessKey, updated, security_code_stored: securityCodeStored } = event.data;
    if (source !== 'cde_import' || !correlationId || !businessKey || !isUuid(correlationId)) return;
    // Only an explicit false counts: events from before the field existed say nothing either way.
    await accountForOutcome(scopeOfEvent(event), correlationId, businessKey, updated ? 'updated' : 'imported', null, securityCodeStored === false);
  };
}

/**
 * Most token.created events are not an import's (POST /tokens, checkout): those are passed over
 * before validation and the processed-event lookup. The handler checks the same fields again.
 */
export function isImportTokenCreated(event: RawEvent): boolean {
  const data = event.data as { source?: unknown; correlation_id?: unknown } | null | undefined;
  return typeof data === 'object' && data !== null && data.source === 'cde_import' && typeof data.correlation_id === 'string';
}
