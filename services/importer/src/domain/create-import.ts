import { newId, ValidationError, type Clock, type Scope } from '@vaultline/core';
import { newImportJob, type ImportJob } from './import-job/import-job';
import { UnknownProviderError } from './import-errors';
import type { ImportProviderPlugin } from './import-provider';
import type { ImportJobRepository, SecretSealer, TransactionRunner } from './ports';
import { credentialsContext } from './run-import';

export interface CreateImportInput {
  /** The caller's merchant and key mode: the job, and the tokens it imports, belong to them. */
  scope: Scope;
  provider: string;
  /** The object posted under the provider's name (provider_a: { api_key }). */
  credentials: unknown;
}

export interface CreateImportPorts {
  jobs: Pick<ImportJobRepository, 'insert'>;
  transaction: TransactionRunner;
  sealer: SecretSealer;
  clock: Clock;
  pluginOf(provider: string): ImportProviderPlugin | null;
  /** Starts the job in the background once it is stored. */
  wake(scope: Scope, jobId: string): void;
}

/** POST /tokens/imports: validates the provider and its credentials, stores the job sealed, starts it. */
export type CreateImport = (input: CreateImportInput) => Promise<ImportJob>;

export function createImport({ jobs, transaction, sealer, clock, pluginOf, wake }: CreateImportPorts): CreateImport {
  return async (input) => {
    const plugin = pluginOf(input.provider);
    if (!plugin) throw new UnknownProviderError(input.provider);
    if (input.credentials === undefined || input.credentials === null) {
      throw new ValidationError(input.provider, `${input.provider} is required: the platform credentials for the import.`, 'provider_credentials_required');
    }
    const parsed = plugin.credentialsSchema.safeParse(input.credentials);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = [input.provider, ...(issue?.path ?? []).map(String)].join('.');
      throw new ValidationError(path, `${path} is missing or invalid.`, 'provider_credentials_invalid');
    }
    const id = newId();
    const sealedCredentials = sealer.seal(JSON.stringify(parsed.data), credentialsContext(id));
    const job = await transaction((uow) =>
      jobs.insert(uow, newImportJob({ id, scope: input.scope, provider: plugin.id, sealedCredentials, now: clock.now() })),
    );
    wake(input.scope, job.id);
    return job;
  };
}
