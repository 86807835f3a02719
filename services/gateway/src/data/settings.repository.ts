import { randomBytes } from 'node:crypto';
import { AppError, newId } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import { SETTINGS } from './collections';

interface SettingDocument extends StoredDocument {
  name: string;
  value: string;
}

/**
 * The API-key pepper when API_KEY_PEPPER is not configured: generated once and kept in the
 * gateway's store (development only; production sets the variable so the pepper lives apart
 * from the hashes).
 */
export async function loadOrCreatePepper(store: DocumentStore): Promise<string> {
  const settings = store.collection<SettingDocument>(SETTINGS);
  const existing = await settings.findOne(SYSTEM_SCOPE, { name: 'api_key_pepper' });
  if (existing) return existing.value;
  try {
    const value = randomBytes(32).toString('base64url');
    await store.transaction((uow) => uow.insert<SettingDocument>(SETTINGS, { id: newId(), merchant_id: SYSTEM_SCOPE, name: 'api_key_pepper', value }));
    return value;
  } catch (error) {
    const winner = error instanceof AppError && error.code === 'duplicate_key' ? await settings.findOne(SYSTEM_SCOPE, { name: 'api_key_pepper' }) : null;
    if (winner) return winner.value;
    throw error;
  }
}
