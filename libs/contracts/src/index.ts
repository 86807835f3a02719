export * from './envelope';
export * from './events/catalog';
export * from './parse-envelope';
export * from './openapi';
export * from './internal/vault-detokenize';
export * from './web-addresses';
export * from './internal/forwarder-forward-payment';
export * from './checkout-locales';
