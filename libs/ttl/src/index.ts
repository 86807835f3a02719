export * from './ttl.port';
export { MemoryTtlStore } from './memory-ttl-store';
export { RedisTtlStore } from './redis-ttl-store';
export { openTtlStore } from './open-ttl-store';
