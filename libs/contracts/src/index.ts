export * from './envelope';
export * from './events/catalog';
export * from './parse-envelope';
export * from './openapi';
export * from './internal/vault-detokenize';
export * from './web-addresses';
export * from './internal/forwarder-forward-payment';
export { ERROR_CATALOGUE, ERROR_GROUPS, type ErrorEntry, type ErrorGroup } from './errors/error-catalogue';
export * from './checkout-locales';
