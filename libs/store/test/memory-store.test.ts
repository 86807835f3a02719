import { MemoryDocumentStore } from '../src';
import { storeContract } from '@vaultline/store/testing';

storeContract('memory', async () => {
  const store = new MemoryDocumentStore();
  return { store, cleanup: () => store.close() };
});
