export * from './ttl.port';
export { MemoryTtlStore } from './memory-ttl-store';
export { RedisTtlStore } from './redis-ttl-store';
export { openTtlStore } from './open-ttl-store';
export type { MemoryTtlStoreOptions } from './memory-ttl-store';
export type { RedisTtlStoreOptions } from './redis-ttl-store';
export type { OpenTtlStoreOptions } from './open-ttl-store';
export { InvalidTtlArgumentError } from './ttl-arguments';
