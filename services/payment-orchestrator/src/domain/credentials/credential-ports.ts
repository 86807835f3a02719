import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Credential } from './credential';

export interface CredentialRepository {
  get(scope: Scope, id: string): Promise<Credential | null>;
  insert(uow: UnitOfWork, credential: Omit<Credential, 'version'>): Credential;
  update(uow: UnitOfWork, credential: Credential): Credential;
}
