import type { ImportProviderPlugin } from '../domain/import-provider';
import { providerA } from './provider-a';

/** Every platform the importer reads from. A new provider is a new folder and one line here. */
export const importProviders = {
  provider_a: providerA,
} satisfies Record<string, ImportProviderPlugin>;

export type ImportProviderId = keyof typeof importProviders;

export function isImportProviderId(value: string): value is ImportProviderId {
  return Object.prototype.hasOwnProperty.call(importProviders, value);
}

export function importProviderOf(value: string): ImportProviderPlugin | null {
  return isImportProviderId(value) ? importProviders[value] : null;
}
