import { newId } from '@vaultline/core';
import { forEachStoreAdapter } from '@vaultline/store/testing';
import type { DocumentStore, StoredDocument } from '../src';

interface Note extends StoredDocument {
  text: string;
}

// How services run their repository tests on every adapter; also checks the helper gives fresh stores.
forEachStoreAdapter('forEachStoreAdapter', (open) => {
  let store: DocumentStore;

  beforeEach(async () => {
    store = await open();
    await store.register({ name: 'notes' });
  });

  it('when a note is saved, then it can be read back', async () => {
    const id = newId();
    await store.transaction((uow) => uow.insert<Note>('notes', { id, merchant_id: 'm1', mode: 'test' as const, text: 'hello' }));

    expect(await store.collection<Note>('notes').get({ merchantId: 'm1', mode: 'test' }, id)).toMatchObject({ text: 'hello', version: 1 });
  });

  it('when open is called for the next test, then the store starts empty', async () => {
    expect(await store.collection<Note>('notes').count({ merchantId: 'm1', mode: 'test' }, {})).toBe(0);
  });
});
