export { loadConfig, ConfigError } from './load-config';
export { envBoolean, envInteger, envPort, envList, envUrl, envDurationMs } from './env-helpers';
export { loadKey, type KeySource } from './load-key';
