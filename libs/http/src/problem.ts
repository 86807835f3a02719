import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { AppError } from '@vaultline/core';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * A problem's `type`: the entry of its code on the errors page of the running service,
 * `{PUBLIC_BASE_URL}/docs/errors#{code}` (the gateway serves that page, one anchor per code).
 */
export function problemType(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/docs/errors#${code}`;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  field?: string;
  [extension: string]: unknown;
}

/** The problem+json body for an error; anything that is not an AppError becomes an opaque 500. */
export function problemBody(error: unknown, requestId: string, publicBaseUrl: string): ProblemBody {
  const appError =
    error instanceof AppError ? error : new AppError('internal_error', 500, 'An internal error occurred; quote the request id when contacting support.');
  return {
    // Extensions first so that they can never overwrite the standard members.
    ...appError.extensions,
    type: problemType(publicBaseUrl, appError.code),
    title: STATUS_CODES[appError.status] ?? 'Error',
    status: appError.status,
    detail: appError.message,
    code: appError.code,
    request_id: requestId,
  };
}

/** Sends `error` as application/problem+json. Never includes a stack trace. */
export function problemResponse(res: Response, error: unknown, publicBaseUrl: string): void {
  const requestId = typeof res.locals.requestId === 'string' ? res.locals.requestId : '';
  const body = problemBody(error, requestId, publicBaseUrl);
  if (res.headersSent) return;
  res.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}
