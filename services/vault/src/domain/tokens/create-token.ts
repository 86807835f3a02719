import { newId } from '@vaultline/core';
import { eventMessage } from '@vaultline/bus';
import { tokenCreatedV1 } from '@vaultline/contracts';
import { newRecordKey } from '@vaultline/crypto';
import { DuplicateKeyError, type UnitOfWork } from '@vaultline/store';
import type { ValidCard } from '../card/validate-card';
import type { VaultDeps } from '../ports';
import { destroySecurityCode, storeSecurityCode } from './security-code';
import type { TokenRecord, TokenSource, TokenView } from './token';
import { NAME_FIELD, PAN_FIELD, toTokenView } from './token-view';

export interface TokenizeCommand {
  merchantId: string;
  card: ValidCard;
  businessKey: string | null;
  source: TokenSource;
  correlationId: string | null;
  /**
   * Imports own their business_key (one token per key and merchant, updated on re-import); tokens
   * made through POST /tokens may share a business_key (a label such as a customer id).
   */
  claimBusinessKey?: boolean;
}

export interface TokenizeResult {
  token: TokenView;
  record: TokenRecord;
  /** True when an import replaced the card data of the token holding the same business_key. */
  updated: boolean;
}

/**
 * Stores a card as a new token. Decision: POST /tokens of a card the merchant already tokenized
 * makes a new token (each card entry has its own expiry, name and 15-minute security code, and
 * deleting one token must not affect another); merchants recognise the card by `fingerprint`.
 * `beforeCommit` lets a caller add its own state change to the same unit of work (checkout).
 */
export async function createToken(
  deps: VaultDeps,
  command: TokenizeCommand,
  beforeCommit?: (uow: UnitOfWork, record: TokenRecord) => void,
): Promise<TokenizeResult> {
  const id = newId();
  const now = deps.clock.now().toISOString();
  const { cipher, key } = newRecordKey(deps.keys.ring, { merchantId: command.merchantId, recordId: id });
  const { card } = command;
  const draft: Omit<TokenRecord, 'version'> = {
    id,
    merchant_id: command.merchantId,
    status: 'active',
    business_key: command.businessKey,
    fingerprint: deps.keys.fingerprintOf(command.merchantId, card.pan),
    scheme: card.scheme,
    masked_account_number: card.maskedAccountNumber,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    source: command.source,
    kek_version: key.kek_version,
    wrapped_key: key.wrapped,
    pan_ciphertext: cipher.encrypt(PAN_FIELD, card.pan),
    name_ciphertext: card.cardholderName === null ? null : cipher.encrypt(NAME_FIELD, card.cardholderName),
    security_code_stored_at: card.securityCode === null ? null : now,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // The code goes to the TTL store before the commit, keyed by the new id; removed again on failure.
  if (card.securityCode !== null) await storeSecurityCode(deps.ttl, cipher, id, card.securityCode);
  try {
    const record = await deps.store.transaction((uow) => {
      const stored = deps.tokens.insert(uow, draft);
      if (command.claimBusinessKey && command.businessKey !== null) deps.tokens.claimBusinessKey(uow, command.merchantId, command.businessKey, id);
      uow.publish(createdEvent(stored, command, false));
      beforeCommit?.(uow, stored);
      return stored;
    });
    return { token: toTokenView(record, card.cardholderName), record, updated: false };
  } catch (error) {
    if (card.securityCode !== null) await destroySecurityCode(deps.ttl, id).catch(() => undefined);
    throw error;
  }
}

/**
 * /cde-import: the same business_key for the same merchant replaces the card data of the existing
 * token (fresh data key, same token id) instead of making a second token. A deleted token with that
 * key comes back to life with the new card data.
 */
export async function importToken(deps: VaultDeps, command: TokenizeCommand & { businessKey: string }): Promise<TokenizeResult> {
  for (let attempt = 0; ; attempt++) {
    const existing = await deps.tokens.findByBusinessKey(command.merchantId, command.businessKey);
    try {
      if (existing) return await replaceCardData(deps, existing, command);
      return await createToken(deps, { ...command, claimBusinessKey: true });
    } catch (error) {
      // Two imports of one new business key at once: the loser updates the winner's token.
      const retryable = error instanceof DuplicateKeyError || (error instanceof Error && 'retryable' in error && error.retryable === true);
      if (!retryable || attempt >= 2) throw error;
    }
  }
}

async function replaceCardData(deps: VaultDeps, existing: TokenRecord, command: TokenizeCommand): Promise<TokenizeResult> {
  const now = deps.clock.now().toISOString();
  const { cipher, key } = newRecordKey(deps.keys.ring, { merchantId: existing.merchant_id, recordId: existing.id });
  const { card } = command;
  const next: TokenRecord = {
    ...existing,
    status: 'active',
    fingerprint: deps.keys.fingerprintOf(existing.merchant_id, card.pan),
    scheme: card.scheme,
    masked_account_number: card.maskedAccountNumber,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    kek_version: key.kek_version,
    wrapped_key: key.wrapped,
    pan_ciphertext: cipher.encrypt(PAN_FIELD, card.pan),
    name_ciphertext: card.cardholderName === null ? null : cipher.encrypt(NAME_FIELD, card.cardholderName),
    security_code_stored_at: card.securityCode === null ? null : now,
    updated_at: now,
    deleted_at: null,
  };
  // The old code was sealed under the old data key; replace or drop it.
  if (card.securityCode !== null) await storeSecurityCode(deps.ttl, cipher, existing.id, card.securityCode);
  else await destroySecurityCode(deps.ttl, existing.id);
  const record = await deps.store.transaction((uow) => {
    const stored = deps.tokens.update(uow, next);
    uow.publish(createdEvent(stored, command, true));
    return stored;
  });
  return { token: toTokenView(record, card.cardholderName), record, updated: true };
}

function createdEvent(record: TokenRecord, command: TokenizeCommand, updated: boolean) {
  return eventMessage(tokenCreatedV1, {
    merchantId: record.merchant_id,
    data: {
      token_id: record.id,
      business_key: record.business_key,
      scheme: record.scheme,
      fingerprint: record.fingerprint,
      source: command.source,
      updated,
      correlation_id: command.correlationId,
    },
  });
}
