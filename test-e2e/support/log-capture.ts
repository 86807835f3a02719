/**
 * Where a test sends the services' log lines. createLogger (libs/logger) writes to its
 * `destination` when one is given (stdout otherwise, through pino's own fd writer, which
 * process.stdout spies would not see); a test that mocks createLogger to pass this stream keeps the
 * real logger, its level and both redaction layers, and only changes where the final lines go.
 */
export const capturedLogLines: string[] = [];

export const logCaptureStream = {
  write(line: string): void {
    capturedLogLines.push(line);
  },
};

/**
 * The module jest.mock puts in place of libs/logger's create-logger: the real createLogger writing to
 * the capture. Each test file still calls jest.mock itself (it is hoisted per file):
 *   jest.mock('../libs/logger/src/create-logger', () => jest.requireActual<typeof import('./support/log-capture')>('./support/log-capture').capturingLoggerModule());
 */
export function capturingLoggerModule(): typeof import('../../libs/logger/src/create-logger') {
  const actual = jest.requireActual<typeof import('../../libs/logger/src/create-logger')>('../../libs/logger/src/create-logger');
  return {
    ...actual,
    createLogger: (options: Parameters<typeof actual.createLogger>[0]) => actual.createLogger({ ...options, destination: logCaptureStream }),
  };
}
