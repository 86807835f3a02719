export * from './service-runtime';
export * from './runtime-config';
export * from './internal-keys';
export * from './build-runtime';
export * from './serve';
export * from './standalone';
export * from './internal-tls';
