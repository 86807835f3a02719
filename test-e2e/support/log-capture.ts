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
