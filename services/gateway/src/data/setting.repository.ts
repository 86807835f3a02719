import { newId } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { SettingRepository } from '../domain/ports';
import { SETTINGS } from './collections';

interface SettingDocument extends StoredDocument {
  name: string;
  value: string;
}

/** The gateway's own settings: system records, one per name (unique index). */
export class StoreSettingRepository implements SettingRepository {
  constructor(private readonly store: DocumentStore) {}

  async find(name: string): Promise<string | null> {
    const setting = await this.store.collection<SettingDocument>(SETTINGS).findOne(SYSTEM_SCOPE, { name });
    return setting ? setting.value : null;
  }

  async insert(name: string, value: string): Promise<void> {
    await this.store.transaction((uow) => uow.insert<SettingDocument>(SETTINGS, { id: newId(), merchant_id: SYSTEM_SCOPE, name, value }));
  }
}
