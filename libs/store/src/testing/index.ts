// @vaultline/store/testing: the DocumentStore contract suite, and forEachStoreAdapter for repository
// tests that run against every adapter.
export * from './store.contract';
export * from './store-adapters';
export * from './documents-before-modes';
