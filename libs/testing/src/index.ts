export * from './redis-server';
export * from './contracts/store.contract';
export * from './contracts/bus.contract';
export * from './contracts/ttl.contract';
export * from './containers';
export * from './store-adapters';
