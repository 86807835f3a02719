export * from './embedded';
export * from './local';
export * from './service-registry';
export * from './dev-ca';
export * from './kafka';
