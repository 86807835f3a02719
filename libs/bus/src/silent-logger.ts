import { createLogger, type Logger } from '@vaultline/logger';

/** Used when the caller passes no logger: adapters must never write to stdout on their own. */
export const silentLogger = (): Logger => createLogger({ service: 'bus', level: 'silent' });
