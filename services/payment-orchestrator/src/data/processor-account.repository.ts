import { type Scope, scopeOfDocument } from '@vaultline/core';
import type { DocumentStore, UnitOfWork } from '@vaultline/store';
import type { ProcessorAccountRepository } from '../domain/processor-accounts/processor-account-ports';
import type { ProcessorNotificationRepository } from '../domain/processor-port/processor-notification-ports';
import type { ProcessorNotificationRecord } from '../domain/processor-port/processor-notification';
import type { ProcessorAccount } from '../domain/processor-accounts/processor-account';
import { PROCESSOR_ACCOUNTS, PROCESSOR_NOTIFICATIONS } from './collections';

export class StoreProcessorAccountRepository implements ProcessorAccountRepository {
  constructor(private readonly store: DocumentStore) {}

  get(scope: Scope, id: string): Promise<ProcessorAccount | null> {
    return this.store.collection<ProcessorAccount>(PROCESSOR_ACCOUNTS).get(scope, id);
  }

  getGlobal(id: string): Promise<ProcessorAccount | null> {
    return this.store.collection<ProcessorAccount>(PROCESSOR_ACCOUNTS).getGlobal(id);
  }

  async list(scope: Scope, limit: number): Promise<ProcessorAccount[]> {
    return (await this.store.collection<ProcessorAccount>(PROCESSOR_ACCOUNTS).list(scope, {}, { limit })).items;
  }

  insert(uow: UnitOfWork, account: Omit<ProcessorAccount, 'version'>): ProcessorAccount {
    return uow.insert<ProcessorAccount>(PROCESSOR_ACCOUNTS, account);
  }

  update(uow: UnitOfWork, account: ProcessorAccount): ProcessorAccount {
    return uow.update<ProcessorAccount>(PROCESSOR_ACCOUNTS, account);
  }

  delete(uow: UnitOfWork, account: ProcessorAccount): void {
    uow.delete(PROCESSOR_ACCOUNTS, scopeOfDocument(account), account.id, account.version);
  }
}

export class StoreProcessorNotificationRepository implements ProcessorNotificationRepository {
  constructor(private readonly store: DocumentStore) {}

  insert(uow: UnitOfWork, record: Omit<ProcessorNotificationRecord, 'version'>): void {
    uow.insert<ProcessorNotificationRecord>(PROCESSOR_NOTIFICATIONS, record);
  }

  async findCaptureEvent(scope: Scope, accountId: string, reference: string): Promise<ProcessorNotificationRecord | null> {
    const collection = this.store.collection<ProcessorNotificationRecord>(PROCESSOR_NOTIFICATIONS);
    for (const field of ['capture_reference', 'processor_reference'] as const) {
      const page = await collection.list(scope, { account_id: accountId, [field]: reference, status: 'accepted' }, { limit: 10 });
      // A success wins over a failure of the same capture, whichever came first (a processor's recapture).
      const event = page.items.find((record) => record.kind === 'capture_succeeded') ?? page.items.find((record) => record.kind === 'capture_failed');
      if (event) return event;
    }
    return null;
  }

  async findActionEvent(scope: Scope, accountId: string, actionReference: string, kinds: readonly string[]): Promise<ProcessorNotificationRecord | null> {
    const page = await this.store
      .collection<ProcessorNotificationRecord>(PROCESSOR_NOTIFICATIONS)
      .list(scope, { account_id: accountId, capture_reference: actionReference, status: 'accepted' }, { limit: 10 });
    // The first of the kinds, in the order given, that an event has.
    for (const kind of kinds) {
      const event = page.items.find((record) => record.kind === kind);
      if (event) return event;
    }
    return null;
  }

  async list(scope: Scope, accountId: string, limit: number): Promise<ProcessorNotificationRecord[]> {
    return (await this.store.collection<ProcessorNotificationRecord>(PROCESSOR_NOTIFICATIONS).list(scope, { account_id: accountId }, { limit })).items;
  }
}
