import { newId, ValidationError, type Scope } from '@vaultline/core';
import { processorsOf } from '../flows/flow';
import type { Clock } from '@vaultline/core';
import type { FlowRepository } from '../flows/flow-ports';
import type { ProcessorAccountPolicy, ProcessorAccountRepository, ProcessorDestinationCheck, SecretSealer } from './processor-account-ports';
import type { TransactionRunner } from '@vaultline/store';
import {
  credentialsContext,
  DestinationNotAllowed,
  InvalidCredentials,
  ProcessorAccountInUse,
  ProcessorAccountLimitReached,
  ProcessorAccountNotFound,
  type AccountProcessor,
  type ProcessorAccount,
  type ProcessorAccountSettings,
} from './processor-account';

export interface ManageProcessorAccountsPorts {
  accounts: ProcessorAccountRepository;
  policy: ProcessorAccountPolicy;
  destinations: ProcessorDestinationCheck;
  sealer: SecretSealer;
  transaction: TransactionRunner;
  clock: Clock;
  maxAccountsPerMerchant: number;
}

export interface NewProcessorAccount {
  processor: AccountProcessor;
  name: string;
  credentials: Record<string, unknown>;
  settings: ProcessorAccountSettings;
}

export interface ProcessorAccountChange {
  name?: string;
  /** Replaces the credentials as a whole (a rotation): validated like new ones. */
  credentials?: Record<string, unknown>;
  /** Replaces the settings as a whole. */
  settings?: ProcessorAccountSettings;
}

export type CreateProcessorAccount = (scope: Scope, input: NewProcessorAccount) => Promise<ProcessorAccount>;
export type GetProcessorAccount = (scope: Scope, id: string) => Promise<ProcessorAccount>;
export type ListProcessorAccounts = (scope: Scope) => Promise<ProcessorAccount[]>;
export type UpdateProcessorAccount = (scope: Scope, id: string, change: ProcessorAccountChange) => Promise<ProcessorAccount>;
export type DeleteProcessorAccount = (scope: Scope, id: string) => Promise<void>;

function checkedCredentials(policy: ProcessorAccountPolicy, processor: AccountProcessor, credentials: Record<string, unknown>): string | null {
  const checked = policy.validateCredentials(processor, credentials);
  if (!checked.ok) throw new InvalidCredentials(checked.field, checked.detail, checked.code);
  return checked.hint;
}

async function checkSettings(
  { policy, destinations }: Pick<ManageProcessorAccountsPorts, 'policy' | 'destinations'>,
  scope: Scope,
  processor: AccountProcessor,
  settings: ProcessorAccountSettings,
): Promise<void> {
  const checked = policy.validateSettings(processor, settings);
  if (!checked.ok) throw new ValidationError(checked.field, checked.detail);
  if (settings.base_url === null) return;
  const url = policy.paymentsUrl(processor, settings.base_url);
  if (!(await destinations(scope, url))) throw new DestinationNotAllowed(url);
}

export function createProcessorAccount(ports: ManageProcessorAccountsPorts): CreateProcessorAccount {
  const { accounts, policy, sealer, transaction, clock, maxAccountsPerMerchant } = ports;
  return async (scope, input) => {
    if (!policy.processors().includes(input.processor)) throw new ValidationError('processor', `processor must be one of ${policy.processors().join(', ')}.`);
    const hint = checkedCredentials(policy, input.processor, input.credentials);
    await checkSettings(ports, scope, input.processor, input.settings);
    if ((await accounts.list(scope, maxAccountsPerMerchant)).length >= maxAccountsPerMerchant) throw new ProcessorAccountLimitReached(maxAccountsPerMerchant);
    const now = clock.now().toISOString();
    const id = newId();
    const account: Omit<ProcessorAccount, 'version'> = {
      id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      processor: input.processor,
      name: input.name,
      settings: input.settings,
      sealed_credentials: sealer.seal(JSON.stringify(input.credentials), credentialsContext({ merchant_id: scope.merchantId, id })),
      credentials_hint: hint,
      credentials_updated_at: now,
      created_at: now,
      updated_at: now,
    };
    return transaction((uow) => accounts.insert(uow, account));
  };
}

export function getProcessorAccount({ accounts }: Pick<ManageProcessorAccountsPorts, 'accounts'>): GetProcessorAccount {
  return async (scope, id) => {
    const account = await accounts.get(scope, id);
    if (!account) throw new ProcessorAccountNotFound();
    return account;
  };
}

export function listProcessorAccounts({
  accounts,
  maxAccountsPerMerchant,
}: Pick<ManageProcessorAccountsPorts, 'accounts' | 'maxAccountsPerMerchant'>): ListProcessorAccounts {
  return (scope) => accounts.list(scope, maxAccountsPerMerchant);
}

/** A compare-and-set on the version read: of two concurrent changes one commits, the other gets 409. */
export function updateProcessorAccount(ports: ManageProcessorAccountsPorts): UpdateProcessorAccount {
  const { accounts, policy, sealer, transaction, clock } = ports;
  return async (scope, id, change) => {
    const account = await getProcessorAccount(ports)(scope, id);
    const now = clock.now().toISOString();
    const next: ProcessorAccount = { ...account, updated_at: now };
    if (change.name !== undefined) next.name = change.name;
    if (change.credentials !== undefined) {
      next.credentials_hint = checkedCredentials(policy, account.processor, change.credentials);
      next.sealed_credentials = sealer.seal(JSON.stringify(change.credentials), credentialsContext(account));
      next.credentials_updated_at = now;
    }
    if (change.settings !== undefined) {
      await checkSettings(ports, scope, account.processor, change.settings);
      next.settings = change.settings;
    }
    return transaction((uow) => accounts.update(uow, next));
  };
}

export function deleteProcessorAccount(
  ports: Pick<ManageProcessorAccountsPorts, 'accounts' | 'transaction'> & { flows: Pick<FlowRepository, 'list'> },
): DeleteProcessorAccount {
  return async (scope, id) => {
    const account = await ports.accounts.get(scope, id);
    if (!account) throw new ProcessorAccountNotFound();
    const naming = (await ports.flows.list(scope)).filter((flow) => processorsOf(flow).includes(id)).map((flow) => flow.name);
    if (naming.length > 0) throw new ProcessorAccountInUse(naming);
    await ports.transaction((uow) => ports.accounts.delete(uow, account));
  };
}

/** The account's credentials, opened for a call to its processor (never returned to a merchant). */
export function openCredentials(sealer: SecretSealer, account: ProcessorAccount): unknown {
  return JSON.parse(sealer.open(account.sealed_credentials, credentialsContext(account)));
}
