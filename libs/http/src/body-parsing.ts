import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, BadRequestError } from '@vaultline/core';

const rawBodies = new WeakMap<Request, Buffer>();

/** The exact bytes of a parsed JSON or form body (for signatures and byte-exact forwarding). */
export function rawBodyOf(req: Request): Buffer | undefined {
  return rawBodies.get(req);
}

export const SUPPORTED_BODY_TYPES = ['application/json', 'application/*+json', 'application/x-www-form-urlencoded'];

export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** Rejects a request that carries a body in a format we do not parse. */
export function contentTypeGuard(types: string[] = SUPPORTED_BODY_TYPES): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(types)) {
      throw new UnsupportedMediaTypeError();
    }
    next();
  };
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super('unsupported_media_type', 415, 'Send the body as application/json or application/x-www-form-urlencoded, with a matching Content-Type.');
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: string) {
    super('payload_too_large', 413, `The request body exceeds the limit of ${limit}.`);
  }
}

export function bodyParsers(limit: string): RequestHandler[] {
  const verify = (req: Request, _res: Response, buf: Buffer) => {
    rawBodies.set(req, buf);
  };
  return [
    express.json({ limit, type: ['application/json', 'application/*+json'], verify }),
    express.urlencoded({ limit, extended: true, parameterLimit: 1000, verify }),
  ];
}

/** Maps body-parser failures to our errors (they carry `type` and `status`). */
export function translateBodyError(error: unknown, limit: string): unknown {
  if (typeof error !== 'object' || error === null || !('type' in error)) return error;
  switch ((error as { type: unknown }).type) {
    case 'entity.parse.failed':
      return new BadRequestError('The request body is not valid JSON.', 'malformed_json');
    case 'entity.too.large':
      return new PayloadTooLargeError(limit);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError();
    case 'request.aborted':
    case 'request.size.invalid':
      return new BadRequestError('The request body was incomplete.', 'incomplete_body');
    case 'parameters.too.many':
      return new BadRequestError('The form body has too many parameters.', 'too_many_parameters');
    default:
      return error;
  }
}
