import type { DocumentStore, ScopedDocument, UnitOfWork } from '@vaultline/store';
import { NotFoundError, type Mode } from '@vaultline/core';
import type { ApiKeyRecord } from '../domain/merchant';
import type { ApiKeyRepository, PageOf, PageRequest } from '../domain/ports';
import { API_KEYS } from './collections';

/**
 * A key as stored. A merchant's keys are operator records of the merchant, both modes listed together:
 * every key is kept in the merchant's test-mode partition (`mode` is the store's), and the key's own
 * mode is `key_mode`. Keys written before modes kept it in `mode` and have no `key_mode`.
 */
export type ApiKeyDocument = ScopedDocument & Omit<ApiKeyRecord, 'mode'> & { key_mode?: Mode };

const PARTITION_MODE: Mode = 'test';
const scopeOf = (merchantId: string) => ({ merchantId, mode: PARTITION_MODE });

const toRecord = ({ version: _version, key_mode: keyMode, mode, ...record }: ApiKeyDocument): ApiKeyRecord => ({ ...record, mode: keyMode ?? mode });
const toDocument = ({ mode, ...record }: ApiKeyRecord): Omit<ApiKeyDocument, 'version'> => ({ ...record, mode: PARTITION_MODE, key_mode: mode });

/** Writes a key in the caller's unit of work (a merchant and its first key commit together). */
export function insertKey(uow: UnitOfWork, key: ApiKeyRecord): void {
  uow.insert<ApiKeyDocument>(API_KEYS, toDocument(key));
}

export class StoreApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: DocumentStore) {}

  private get keys() {
    return this.store.collection<ApiKeyDocument>(API_KEYS);
  }

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.store.transaction((uow) => insertKey(uow, key));
  }

  async get(merchantId: string, id: string): Promise<ApiKeyRecord | null> {
    const doc = await this.keys.get(scopeOf(merchantId), id);
    return doc ? toRecord(doc) : null;
  }

  async list(merchantId: string, page: PageRequest, mode?: Mode): Promise<PageOf<ApiKeyRecord>> {
    const result = await this.keys.list(scopeOf(merchantId), mode ? { key_mode: mode } : {}, page);
    return { ...result, items: result.items.map(toRecord) };
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.keys.findGlobal({ key_hash: keyHash });
    return doc ? toRecord(doc) : null;
  }

  async roll(merchantId: string, oldId: string, oldExpiresAt: string, next: ApiKeyRecord): Promise<ApiKeyRecord> {
    const doc = await this.keys.get(scopeOf(merchantId), oldId);
    if (!doc) throw new NotFoundError('api_key');
    const updated = await this.store.transaction((uow) => {
      insertKey(uow, next);
      return uow.update<ApiKeyDocument>(API_KEYS, { ...toDocument(toRecord(doc)), version: doc.version, expires_at: oldExpiresAt });
    });
    return toRecord(updated);
  }

  async revoke(merchantId: string, id: string, at: string): Promise<ApiKeyRecord> {
    const doc = await this.keys.get(scopeOf(merchantId), id);
    if (!doc) throw new NotFoundError('api_key');
    const updated = await this.store.transaction((uow) =>
      uow.update<ApiKeyDocument>(API_KEYS, { ...toDocument(toRecord(doc)), version: doc.version, revoked_at: at }),
    );
    return toRecord(updated);
  }
}
