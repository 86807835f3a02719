export { loadConfig, ConfigError } from './load-config';
export { envBoolean, envInteger, envPort, envList, envUrl, envDurationMs } from './env-helpers';
export { loadKey, type KeySource } from './load-key';
export { ensurePrivateDirectory } from './private-files';
export { generatedKeyFile, generatedKeysEnv, type GeneratedKeysEnv } from './generated-keys';
