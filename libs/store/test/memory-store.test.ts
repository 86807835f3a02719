import { MemoryDocumentStore } from '../src';
import { storeContract } from '@vaultline/testing';

storeContract('memory', async () => {
  const store = new MemoryDocumentStore();
  return { store, cleanup: () => store.close() };
});
