import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@vaultline/logger';

/** One line per finished request at `level`: request id, method, path, status and duration. */
export function accessLog(logger: Logger, level: 'info' | 'debug') {
  return (req: Request, res: Response, next: NextFunction) => {
    // A listener per request costs even when the line is dropped: only when the level is on.
    if (!logger.isLevelEnabled(level)) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger[level]({ request_id: res.locals.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
