import type { Scope } from '@vaultline/core';
import type { Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { TokenRecord } from './tokens/token';
import type { DetokenizeAuditRecord } from './audit/detokenize-audit';
import type { KeyRotationRecord } from './keys/key-rotation-record';
import type { CheckoutSessionRecord } from './checkout/checkout-session';
import type { CheckoutBrandingRecord } from './branding/checkout-branding';

export type { TransactionRunner } from '@vaultline/store';

/** Repositories the use cases need; data/ implements them over the DocumentStore port. */
export interface TokenRepository {
  get(scope: Scope, id: string): Promise<TokenRecord | null>;
  findByBusinessKey(scope: Scope, businessKey: string): Promise<TokenRecord | null>;
  list(scope: Scope, filter: { businessKey?: string; fingerprint?: string }, page: PageRequest): Promise<Page<TokenRecord>>;
  /** Background worker only: active tokens of every merchant whose data key is not wrapped by `version`. */
  listNotWrappedBy(version: number, page: PageRequest): Promise<Page<TokenRecord>>;
  countNotWrappedBy(version: number): Promise<number>;
  insert(uow: UnitOfWork, record: Omit<TokenRecord, 'version'>): TokenRecord;
  update(uow: UnitOfWork, record: TokenRecord): TokenRecord;
  /** Claims a business key for a token; the commit fails with DuplicateKeyError when it is taken. */
  claimBusinessKey(uow: UnitOfWork, scope: Scope, businessKey: string, tokenId: string): void;
}

export interface AuditRepository {
  insert(uow: UnitOfWork, record: Omit<DetokenizeAuditRecord, 'version'>): void;
  list(filter: { tokenId?: string; caller?: string }, page: PageRequest): Promise<Page<DetokenizeAuditRecord>>;
}

export interface KeyRotationRepository {
  get(id: string): Promise<KeyRotationRecord | null>;
  latest(): Promise<KeyRotationRecord | null>;
  running(): Promise<KeyRotationRecord[]>;
  /** Every rotation, a page at a time (the operators' key status). */
  list(page: PageRequest): Promise<Page<KeyRotationRecord>>;
  insert(uow: UnitOfWork, record: Omit<KeyRotationRecord, 'version'>): KeyRotationRecord;
  update(uow: UnitOfWork, record: KeyRotationRecord): KeyRotationRecord;
}

/**
 * Sessions belong to the merchant whose payment opened them; the public page and payment events
 * know only the session id or the payment id, so those reads are global lookups.
 */
export interface CheckoutSessionRepository {
  get(sessionId: string): Promise<CheckoutSessionRecord | null>;
  findByPaymentId(paymentId: string): Promise<CheckoutSessionRecord | null>;
  insert(uow: UnitOfWork, record: Omit<CheckoutSessionRecord, 'version'>): CheckoutSessionRecord;
  update(uow: UnitOfWork, record: CheckoutSessionRecord): CheckoutSessionRecord;
}

/**
 * The hosted page's look, one record per merchant (its id is the merchant id). Takes the scope for the
 * merchant only: test and live pages show the same shop.
 */
export interface CheckoutBrandingRepository {
  get(scope: Pick<Scope, 'merchantId'>): Promise<CheckoutBrandingRecord | null>;
  insert(uow: UnitOfWork, record: Omit<CheckoutBrandingRecord, 'version'>): CheckoutBrandingRecord;
  update(uow: UnitOfWork, record: CheckoutBrandingRecord): CheckoutBrandingRecord;
}
