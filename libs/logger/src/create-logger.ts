import pino from 'pino';
import { maskPans } from '@vaultline/core';
import { CENSOR, redactDeep, redactPaths } from './redaction';

export type Logger = pino.Logger;

export interface CreateLoggerOptions {
  service: string;
  /** Defaults to LOG_LEVEL, then 'info'. 'silent' turns logging off. */
  level?: string;
  /** Where lines go; stdout by default. Tests pass a capturing stream. */
  destination?: pino.DestinationStream;
}

/**
 * The one way to make a logger. Two layers keep card data and secrets out:
 * 1. by key: sensitive keys are censored at any depth (pino redact + a deep formatter);
 * 2. by pattern: every Luhn-valid 13–19 digit window in the final line (inside longer digit runs
 *    and across spaces and dashes) is masked (maskPans), so even an
 *    unexpected error message or a value under an innocent key cannot carry a PAN.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const pinoOptions: pino.LoggerOptions = {
    level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths(), censor: CENSOR },
    formatters: {
      log: (object) => redactDeep(object) as Record<string, unknown>,
    },
    hooks: {
      streamWrite: (line) => maskPans(line),
    },
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}

/**
 * Writes a finished log line (already redacted and masked by the logger that made it, such as a
 * service thread's) to where `logger` writes its own lines: stdout, or the destination a test gave.
 */
export function lineWriterOf(logger: Logger): (line: string) => void {
  const destination = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  if (!destination) throw new Error('this logger has no destination stream');
  return (line) => void destination.write(line);
}
