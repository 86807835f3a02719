export { createLogger, lineWriterOf } from './create-logger';
export type { Logger, CreateLoggerOptions } from './create-logger';
export { REDACTED_KEYS, isRedactedKey, redactDeep } from './redaction';
