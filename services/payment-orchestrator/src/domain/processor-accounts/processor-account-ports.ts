import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { AccountProcessor, ProcessorAccount, ProcessorAccountSettings } from './processor-account';

export type { SecretSealer } from '@vaultline/crypto';

export interface ProcessorAccountRepository {
  get(scope: Scope, id: string): Promise<ProcessorAccount | null>;
  /** Notifications name the account, not the merchant (they carry no API key). */
  getGlobal(id: string): Promise<ProcessorAccount | null>;
  /** Oldest first, at most `limit`. */
  list(scope: Scope, limit: number): Promise<ProcessorAccount[]>;
  insert(uow: UnitOfWork, account: Omit<ProcessorAccount, 'version'>): ProcessorAccount;
  /** Compare-and-set on the version the account was read with. */
  update(uow: UnitOfWork, account: ProcessorAccount): ProcessorAccount;
  delete(uow: UnitOfWork, account: ProcessorAccount): void;
}

/** What each processor plugin says of its accounts (the plugins in processors/ implement it). */
export interface ProcessorAccountPolicy {
  /** The processors an account may be opened at (the registry's ids). */
  processors(): readonly string[];
  /**
   * A problem names the field (`credentials.api_key`) and, when it is more precise than invalid_credentials,
   * its code (webhook_secret_too_short); on success, the masked hint of the main secret.
   */
  validateCredentials(
    processor: AccountProcessor,
    credentials: unknown,
  ): { ok: true; hint: string | null } | { ok: false; field: string; detail: string; code?: string };
  /** Whether the processor takes each setting given beyond base_url; a problem names the field. */
  validateSettings(processor: AccountProcessor, settings: ProcessorAccountSettings): { ok: true } | { ok: false; field: string; detail: string };
  /** The settings as a merchant sees them (the processor's defaults filled in). */
  settingsView(processor: AccountProcessor, settings: ProcessorAccountSettings): ProcessorAccountSettings;
  /** The payments URL under a base URL: what the forwarder would be asked to reach. */
  paymentsUrl(processor: AccountProcessor, baseUrl: string): string;
}

/** Whether a payments URL is an allowed forward destination for the merchant. */
export type ProcessorDestinationCheck = (scope: Scope, paymentsUrl: string) => Promise<boolean>;
