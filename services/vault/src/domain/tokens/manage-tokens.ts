import { NotFoundError } from '@vaultline/core';
import { eventMessage } from '@vaultline/bus';
import { tokenDeletedV1 } from '@vaultline/contracts';
import type { Page, PageRequest } from '@vaultline/store';
import type { VaultDeps } from '../ports';
import { destroySecurityCode } from './security-code';
import type { TokenRecord, TokenView } from './token';
import { TokenDeleted, viewOf } from './token-view';

async function activeToken(deps: VaultDeps, merchantId: string, tokenId: string): Promise<TokenRecord> {
  const record = await deps.tokens.get(merchantId, tokenId);
  if (!record) throw new NotFoundError('token');
  if (record.status === 'deleted') throw new TokenDeleted();
  return record;
}

export async function getToken(deps: VaultDeps, merchantId: string, tokenId: string): Promise<TokenView> {
  return viewOf(deps.keys, await activeToken(deps, merchantId, tokenId));
}

/** Deleted tokens are left out of lists. */
export async function listTokens(
  deps: VaultDeps,
  merchantId: string,
  filter: { businessKey?: string; fingerprint?: string },
  page: PageRequest,
): Promise<Page<TokenView>> {
  const result = await deps.tokens.list(merchantId, filter, page);
  return { ...result, items: result.items.map((record) => viewOf(deps.keys, record)) };
}

/**
 * Destroys the card data: ciphertexts and the wrapped data key are erased from the record (so no
 * copy of the data key exists any more, even in backups taken later) and the security code is
 * removed from the TTL store. The record remains as a tombstone answering token_deleted.
 */
export async function deleteToken(deps: VaultDeps, merchantId: string, tokenId: string): Promise<{ id: string; deleted: true }> {
  const record = await deps.tokens.get(merchantId, tokenId);
  if (!record) throw new NotFoundError('token');
  if (record.status !== 'deleted') {
    const now = deps.clock.now().toISOString();
    await deps.store.transaction((uow) => {
      deps.tokens.update(uow, {
        ...record,
        status: 'deleted',
        wrapped_key: null,
        pan_ciphertext: null,
        name_ciphertext: null,
        security_code_stored_at: null,
        updated_at: now,
        deleted_at: now,
      });
      uow.publish(eventMessage(tokenDeletedV1, { merchantId, data: { token_id: tokenId } }));
    });
  }
  await destroySecurityCode(deps.ttl, tokenId);
  return { id: tokenId, deleted: true };
}
