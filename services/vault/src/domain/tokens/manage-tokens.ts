import { NotFoundError, type Clock, type Scope } from '@vaultline/core';
import { tokenDeletedV1, domainEvent } from '@vaultline/contracts';
import type { Page, PageRequest } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import type { VaultKeys } from '../keys/vault-keys';
import type { TokenRepository, TransactionRunner } from '../ports';
import { destroySecurityCode } from './security-code';
import { TokenDeleted, type ReadableToken } from './token';
import { readable } from './token-cipher';

interface ReadTokenPorts {
  tokens: Pick<TokenRepository, 'get' | 'list'>;
  keys: VaultKeys;
}

export type GetToken = (scope: Scope, tokenId: string) => Promise<ReadableToken>;

export function getToken({ tokens, keys }: ReadTokenPorts): GetToken {
  return async (scope, tokenId) => {
    const record = await tokens.get(scope, tokenId);
    if (!record) throw new NotFoundError('token');
    if (record.status === 'deleted') throw new TokenDeleted();
    return readable(keys, record);
  };
}

export type ListTokens = (scope: Scope, filter: { businessKey?: string; fingerprint?: string }, page: PageRequest) => Promise<Page<ReadableToken>>;

/** Deleted tokens are left out of lists. */
export function listTokens({ tokens, keys }: ReadTokenPorts): ListTokens {
  return async (scope, filter, page) => {
    const result = await tokens.list(scope, filter, page);
    return { ...result, items: result.items.map((record) => readable(keys, record)) };
  };
}

export interface DeleteTokenPorts {
  tokens: Pick<TokenRepository, 'get' | 'update'>;
  transaction: TransactionRunner;
  ttl: TtlStore;
  clock: Clock;
}
export type DeleteToken = (scope: Scope, tokenId: string) => Promise<{ id: string; deleted: true }>;

/**
 * Destroys the card data: ciphertexts and the wrapped data key are erased from the record (so no
 * copy of the data key exists any more, even in backups taken later), from what the store's files
 * keep of the old record (shredOnCommit), and the security code is removed from the TTL store. The record remains as a tombstone answering token_deleted.
 */
export function deleteToken({ tokens, transaction, ttl, clock }: DeleteTokenPorts): DeleteToken {
  return async (scope, tokenId) => {
    const record = await tokens.get(scope, tokenId);
    if (!record) throw new NotFoundError('token');
    if (record.status !== 'deleted') {
      const now = clock.now().toISOString();
      await transaction((uow) => {
        tokens.update(uow, {
          ...record,
          status: 'deleted',
          wrapped_key: null,
          pan_ciphertext: null,
          name_ciphertext: null,
          security_code_stored_at: null,
          updated_at: now,
          deleted_at: now,
        });
        uow.publish(domainEvent(tokenDeletedV1, { scope, data: { token_id: tokenId } }));
        // The store's files must not keep the erased fields either (old row versions in the WAL, freed page space).
        uow.shredOnCommit();
      });
    }
    await destroySecurityCode(ttl, tokenId);
    return { id: tokenId, deleted: true };
  };
}
