import { SYSTEM_SCOPE, type DocumentStore, type Page, type PageRequest, type UnitOfWork } from '@vaultline/store';
import type { KeyRotationRecord } from '../domain/keys/key-rotation-record';
import type { KeyRotationRepository } from '../domain/ports';
import { COLLECTIONS } from './collections';

export class StoreKeyRotationRepository implements KeyRotationRepository {
  constructor(private readonly store: DocumentStore) {}

  private get rotations() {
    return this.store.collection<KeyRotationRecord>(COLLECTIONS.keyRotations);
  }

  get(id: string): Promise<KeyRotationRecord | null> {
    return this.rotations.get(SYSTEM_SCOPE, id);
  }

  async latest(): Promise<KeyRotationRecord | null> {
    const page = await this.rotations.list(SYSTEM_SCOPE, {}, { limit: 1, order: 'desc' });
    return page.items[0] ?? null;
  }

  async running(): Promise<KeyRotationRecord[]> {
    return (await this.rotations.list(SYSTEM_SCOPE, { state: 'running' }, { limit: 10 })).items;
  }

  list(page: PageRequest): Promise<Page<KeyRotationRecord>> {
    return this.rotations.list(SYSTEM_SCOPE, {}, page);
  }

  insert(uow: UnitOfWork, record: Omit<KeyRotationRecord, 'version'>): KeyRotationRecord {
    return uow.insert<KeyRotationRecord>(COLLECTIONS.keyRotations, record);
  }

  update(uow: UnitOfWork, record: KeyRotationRecord): KeyRotationRecord {
    return uow.update<KeyRotationRecord>(COLLECTIONS.keyRotations, record);
  }
}
