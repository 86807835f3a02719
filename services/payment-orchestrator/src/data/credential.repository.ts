import type { Scope } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { CredentialRepository } from '../domain/credentials/credential-ports';
import type { Credential } from '../domain/credentials/credential';
import { CREDENTIALS } from './collections';

export class StoreCredentialRepository implements CredentialRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Scope, id: string): Promise<Credential | null> {
    return this.store.collection<Credential>(CREDENTIALS).get(scope, id);
  }

  insert(uow: UnitOfWork, credential: Omit<Credential, 'version'>): Credential {
    return uow.insert<Credential>(CREDENTIALS, credential);
  }

  update(uow: UnitOfWork, credential: Credential): Credential {
    return uow.update<Credential>(CREDENTIALS, credential);
  }
}
