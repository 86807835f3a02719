export { createApp, type VaultApp } from './app';
export * from './config';
export { VaultKeys } from './domain/keys/vault-keys';
export { SECURITY_CODE_TTL_MS } from './domain/tokens/security-code';
export { detectScheme, SCHEMES, type Scheme } from './domain/card/card-scheme';
