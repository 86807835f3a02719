import { newId, scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import { tokenCreatedV1, domainEvent } from '@vaultline/contracts';
import { newRecordKey, type RecordCipher } from '@vaultline/crypto';
import { DuplicateKeyError, type UnitOfWork } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import { validateCard, type CardInput, type ValidateOptions, type ValidCard } from '../card/validate-card';
import type { VaultKeys } from '../keys/vault-keys';
import type { TokenRepository, TransactionRunner } from '../ports';
import { destroySecurityCode, storeSecurityCode } from './security-code';
import type { ReadableToken, TokenRecord, TokenSource } from './token';
import { NAME_FIELD, PAN_FIELD } from './token-cipher';

export interface TokenizeCommand {
  /** The merchant and the mode of the key (or the session) the card comes with. */
  scope: Scope;
  /** Validated here, with `cardRules` (the hosted checkout requires the security code). */
  card: CardInput;
  cardRules?: ValidateOptions;
  businessKey: string | null;
  source: TokenSource;
  correlationId: string | null;
}

export interface TokenizeResult {
  token: ReadableToken;
  /** True when an import replaced the card data of the token holding the same business_key. */
  updated: boolean;
}

export interface CreateTokenPorts {
  tokens: Pick<TokenRepository, 'insert' | 'claimBusinessKey'>;
  transaction: TransactionRunner;
  keys: VaultKeys;
  ttl: TtlStore;
  clock: Clock;
}
/** `beforeCommit` lets a caller add its own state change to the same unit of work (checkout). */
export type CreateToken = (
  command: TokenizeCommand,
  beforeCommit?: (uow: UnitOfWork, record: TokenRecord, cardholderName: string | null) => void,
) => Promise<TokenizeResult>;

/**
 * Stores a card as a new token. Decision: POST /tokens of a card the merchant already tokenized
 * makes a new token (each card entry has its own expiry, name and 15-minute security code, and
 * deleting one token must not affect another); merchants recognise the card by `fingerprint`.
 */
export function createToken(ports: CreateTokenPorts): CreateToken {
  return async (command, beforeCommit) => insertToken(ports, validCommand(command, ports.clock), false, beforeCommit);
}

export interface ImportTokenPorts extends CreateTokenPorts {
  tokens: Pick<TokenRepository, 'insert' | 'claimBusinessKey' | 'findByBusinessKey' | 'update'>;
}
export type ImportToken = (command: TokenizeCommand & { businessKey: string }) => Promise<TokenizeResult>;

/**
 * /cde-import: the same business_key for the same merchant replaces the card data of the existing
 * token (fresh data key, same token id) instead of making a second token; imports own their
 * business_key (one token per key and merchant), while tokens made through POST /tokens may share
 * one (a label such as a customer id). A deleted token with that key comes back to life.
 */
export function importToken(ports: ImportTokenPorts): ImportToken {
  return async (command) => {
    const valid = validCommand(command, ports.clock);
    for (let attempt = 0; ; attempt++) {
      const existing = await ports.tokens.findByBusinessKey(command.scope, command.businessKey);
      try {
        if (existing) return await replaceCardData(ports, existing, valid);
        return await insertToken(ports, valid, true);
      } catch (error) {
        // Two imports of one new business key at once: the loser updates the winner's token.
        const retryable = error instanceof DuplicateKeyError || (error instanceof Error && 'retryable' in error && error.retryable === true);
        if (!retryable || attempt >= 2) throw error;
      }
    }
  };
}

type ValidCommand = Omit<TokenizeCommand, 'card' | 'cardRules'> & { card: ValidCard };

function validCommand({ card, cardRules, ...command }: TokenizeCommand, clock: Clock): ValidCommand {
  return { ...command, card: validateCard(card, clock, cardRules) };
}

async function insertToken(
  ports: CreateTokenPorts,
  command: ValidCommand,
  claimBusinessKey: boolean,
  beforeCommit?: (uow: UnitOfWork, record: TokenRecord, cardholderName: string | null) => void,
): Promise<TokenizeResult> {
  const id = newId();
  const now = ports.clock.now().toISOString();
  const { card } = command;
  const { cipher, fields } = sealCard(ports.keys, command.scope.merchantId, id, card, now);
  const draft: Omit<TokenRecord, 'version'> = {
    id,
    merchant_id: command.scope.merchantId,
    mode: command.scope.mode,
    status: 'active',
    business_key: command.businessKey,
    source: command.source,
    ...fields,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // The code goes to the TTL store before the commit, keyed by the new id; removed again on failure.
  if (card.securityCode !== null) await storeSecurityCode(ports.ttl, cipher, id, card.securityCode);
  try {
    const record = await ports.transaction((uow) => {
      const stored = ports.tokens.insert(uow, draft);
      if (claimBusinessKey && command.businessKey !== null) ports.tokens.claimBusinessKey(uow, command.scope, command.businessKey, id);
      uow.publish(tokenCreatedEvent(stored, command, false));
      beforeCommit?.(uow, stored, card.cardholderName);
      return stored;
    });
    return { token: { record, cardholderName: card.cardholderName }, updated: false };
  } catch (error) {
    if (card.securityCode !== null) await destroySecurityCode(ports.ttl, id).catch(() => undefined);
    throw error;
  }
}

async function replaceCardData(ports: ImportTokenPorts, existing: TokenRecord, command: ValidCommand): Promise<TokenizeResult> {
  const now = ports.clock.now().toISOString();
  const { card } = command;
  const { cipher, fields } = sealCard(ports.keys, existing.merchant_id, existing.id, card, now);
  const next: TokenRecord = { ...existing, status: 'active', ...fields, updated_at: now, deleted_at: null };
  // The old code was sealed under the old data key; replace or drop it.
  if (card.securityCode !== null) await storeSecurityCode(ports.ttl, cipher, existing.id, card.securityCode);
  else await destroySecurityCode(ports.ttl, existing.id);
  const record = await ports.transaction((uow) => {
    const stored = ports.tokens.update(uow, next);
    uow.publish(tokenCreatedEvent(stored, command, true));
    return stored;
  });
  return { token: { record, cardholderName: card.cardholderName }, updated: true };
}

type SealedCardFields = Pick<
  TokenRecord,
  | 'fingerprint'
  | 'scheme'
  | 'masked_account_number'
  | 'expiry_month'
  | 'expiry_year'
  | 'kek_version'
  | 'wrapped_key'
  | 'pan_ciphertext'
  | 'name_ciphertext'
  | 'security_code_stored_at'
>;

/**
 * The card as a token stores it, under a fresh data key bound to the merchant and the token id: the
 * one place where card data becomes ciphertext. The cipher is returned for the security code.
 */
function sealCard(keys: VaultKeys, merchantId: string, tokenId: string, card: ValidCard, now: string): { cipher: RecordCipher; fields: SealedCardFields } {
  const { cipher, key } = newRecordKey(keys.ring, { merchantId, recordId: tokenId });
  return {
    cipher,
    fields: {
      fingerprint: keys.fingerprintOf(merchantId, card.pan),
      scheme: card.scheme,
      masked_account_number: card.maskedAccountNumber,
      expiry_month: card.expiryMonth,
      expiry_year: card.expiryYear,
      kek_version: key.kek_version,
      wrapped_key: key.wrapped,
      pan_ciphertext: cipher.encrypt(PAN_FIELD, card.pan),
      name_ciphertext: card.cardholderName === null ? null : cipher.encrypt(NAME_FIELD, card.cardholderName),
      security_code_stored_at: card.securityCode === null ? null : now,
    },
  };
}

function tokenCreatedEvent(record: TokenRecord, command: ValidCommand, updated: boolean) {
  return domainEvent(tokenCreatedV1, {
    scope: scopeOfDocument(record),
    data: {
      token_id: record.id,
      business_key: record.business_key,
      scheme: record.scheme,
      fingerprint: record.fingerprint,
      source: command.source,
      updated,
      correlation_id: command.correlationId,
      security_code_stored: record.security_code_stored_at !== null,
    },
  });
}
