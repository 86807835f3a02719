import { randomBytes } from 'node:crypto';
import { AppError } from '@vaultline/core';
import type { SettingRepository } from './ports';

const PEPPER_SETTING = 'api_key_pepper';

export type LoadOrCreatePepper = () => Promise<string>;

/**
 * The API-key pepper when API_KEY_PEPPER is not configured: generated once and kept in the
 * gateway's store (development only; production sets the variable so the pepper lives apart
 * from the hashes). Two instances starting at once agree on the first one stored.
 */
export function loadOrCreatePepper({ settings }: { settings: SettingRepository }): LoadOrCreatePepper {
  return async () => {
    const existing = await settings.find(PEPPER_SETTING);
    if (existing) return existing;
    try {
      const value = randomBytes(32).toString('base64url');
      await settings.insert(PEPPER_SETTING, value);
      return value;
    } catch (error) {
      const winner = error instanceof AppError && error.code === 'duplicate_key' ? await settings.find(PEPPER_SETTING) : null;
      if (winner) return winner;
      throw error;
    }
  };
}
