export * from './errors';
export * from './ids';
export * from './clock';
export * from './sensitive';
export * from './luhn';
export * from './timing-safe';
export * from './async';
export * from './free-port';
