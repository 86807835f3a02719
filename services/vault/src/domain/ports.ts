import type { Clock } from '@vaultline/core';
import type { DocumentStore, Page, PageRequest, UnitOfWork } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import type { TokenRecord } from './tokens/token';
import type { DetokenizeAuditRecord } from './audit/detokenize-audit';
import type { KeyRotationRecord } from './keys/key-rotation';
import type { CheckoutSessionRecord } from './checkout/checkout-session';
import type { VaultKeys } from './keys/vault-keys';

/** Repositories the use cases need; data/ implements them over the DocumentStore port. */
export interface TokenRepository {
  get(merchantId: string, id: string): Promise<TokenRecord | null>;
  findByBusinessKey(merchantId: string, businessKey: string): Promise<TokenRecord | null>;
  list(merchantId: string, filter: { businessKey?: string; fingerprint?: string }, page: PageRequest): Promise<Page<TokenRecord>>;
  /** Background worker only: active tokens of every merchant whose data key is not wrapped by `version`. */
  listNotWrappedBy(version: number, page: PageRequest): Promise<Page<TokenRecord>>;
  countNotWrappedBy(version: number): Promise<number>;
  insert(uow: UnitOfWork, record: Omit<TokenRecord, 'version'>): TokenRecord;
  update(uow: UnitOfWork, record: TokenRecord): TokenRecord;
  /** Claims a business key for a token; the commit fails with DuplicateKeyError when it is taken. */
  claimBusinessKey(uow: UnitOfWork, merchantId: string, businessKey: string, tokenId: string): void;
}

export interface AuditRepository {
  insert(uow: UnitOfWork, record: Omit<DetokenizeAuditRecord, 'version'>): void;
  list(filter: { tokenId?: string; caller?: string }, page: PageRequest): Promise<Page<DetokenizeAuditRecord>>;
}

export interface KeyRotationRepository {
  get(id: string): Promise<KeyRotationRecord | null>;
  latest(): Promise<KeyRotationRecord | null>;
  running(): Promise<KeyRotationRecord[]>;
  insert(uow: UnitOfWork, record: Omit<KeyRotationRecord, 'version'>): KeyRotationRecord;
  update(uow: UnitOfWork, record: KeyRotationRecord): KeyRotationRecord;
}

export interface CheckoutSessionRepository {
  get(sessionId: string): Promise<CheckoutSessionRecord | null>;
  findByPaymentId(paymentId: string): Promise<CheckoutSessionRecord | null>;
  insert(uow: UnitOfWork, record: Omit<CheckoutSessionRecord, 'version'>): CheckoutSessionRecord;
  update(uow: UnitOfWork, record: CheckoutSessionRecord): CheckoutSessionRecord;
}

/** Everything the vault's use cases are given by the composition root. */
export interface VaultDeps {
  store: Pick<DocumentStore, 'transaction'>;
  tokens: TokenRepository;
  audit: AuditRepository;
  rotations: KeyRotationRepository;
  sessions: CheckoutSessionRepository;
  keys: VaultKeys;
  ttl: TtlStore;
  clock: Clock;
}
