import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, BadRequestError, BodyTooDeepError } from '@vaultline/core';

const rawBodies = new WeakMap<Request, Buffer>();

/** The exact bytes of a parsed JSON or form body (for signatures and byte-exact forwarding). */
export function rawBodyOf(req: Request): Buffer | undefined {
  return rawBodies.get(req);
}

/** The bodies of the JSON routes: every route but those that forward a destination's own body. */
export const JSON_BODY_TYPES: readonly string[] = ['application/json', 'application/*+json'];
export const SUPPORTED_BODY_TYPES: readonly string[] = [...JSON_BODY_TYPES, 'application/x-www-form-urlencoded'];

export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** Rejects a request that carries a body in a format we do not parse. */
export function contentTypeGuard(types: readonly string[] = SUPPORTED_BODY_TYPES): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    assertBodyType(req, types);
    next();
  };
}

/** 415 for a body whose Content-Type is not one of `types`; a request without a body passes (optional bodies). */
export function assertBodyType(req: Request, types: readonly string[]): void {
  if (hasBody(req) && !req.is([...types])) throw new UnsupportedMediaTypeError(types);
}

/** The problem names the types the route reads (field Content-Type), so a client sending a form to a JSON route learns what to send. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(expected: readonly string[] = SUPPORTED_BODY_TYPES) {
    const named = expected.filter((type) => !type.includes('*'));
    super('unsupported_media_type', 415, `Send the body as ${named.join(' or ')}, with a matching Content-Type header.`, {
      field: 'Content-Type',
      accepted: named,
    });
  }
}

export class UnsupportedContentEncodingError extends AppError {
  constructor() {
    super('unsupported_content_encoding', 415, 'Send the body uncompressed, or with Content-Encoding gzip, deflate or br.', { field: 'Content-Encoding' });
  }
}

export class InvalidContentEncodingError extends BadRequestError {
  constructor() {
    super('The request body does not decode as its Content-Encoding says.', 'invalid_content_encoding', { field: 'Content-Encoding' });
  }
}

/** Deepest nesting of form keys (`a[b][c]`) the form parser reads (body-parser's default, strict: deeper is refused, body_too_deep). */
export const FORM_KEY_DEPTH = 32;

export class PayloadTooLargeError extends AppError {
  constructor(limit: string) {
    super('payload_too_large', 413, `The request body exceeds the limit of ${limit}.`);
  }
}

/** The Content-Encodings a body may come in; the answer must not depend on what this Node version can decode (24 adds zstd). */
const ACCEPTED_CONTENT_ENCODINGS = new Set(['identity', 'gzip', 'x-gzip', 'deflate', 'br']);

/** Refuses (415) a body in any encoding outside ACCEPTED_CONTENT_ENCODINGS before a parser reads it. */
function contentEncodingGuard(): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers['content-encoding'];
    if (header === undefined || !hasBody(req)) return next();
    const encodings = header
      .split(',')
      .map((value) => value.trim().toLowerCase())
      .filter(Boolean);
    next(encodings.every((encoding) => ACCEPTED_CONTENT_ENCODINGS.has(encoding)) ? undefined : new UnsupportedContentEncodingError());
  };
}

export function bodyParsers(limit: string): RequestHandler[] {
  const verify = (req: Request, _res: Response, buf: Buffer) => {
    rawBodies.set(req, buf);
  };
  return [
    contentEncodingGuard(),
    express.json({ limit, type: ['application/json', 'application/*+json'], verify }),
    express.urlencoded({ limit, extended: true, parameterLimit: 1000, verify }),
  ];
}

/** A zlib or brotli decoding failure, as body-parser passes it on (the zlib error itself, given status 400). */
function isDecodingError(error: object): boolean {
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return typeof errno === 'number' && typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'));
}

/**
 * Maps body-parser failures to our errors (they carry `type` and `status`), so that no body a
 * client sends can turn into a 500: a body that does not decode as its Content-Encoding says is a
 * 400, an encoding we do not decode a 415, form keys nested too deep a 422, and any other client
 * error the parser reports a 400.
 */
export function translateBodyError(error: unknown, limit: string): unknown {
  if (typeof error !== 'object' || error === null || error instanceof AppError) return error;
  if (isDecodingError(error)) return new InvalidContentEncodingError();
  if (!('type' in error)) return clientErrorOf(error) ?? error;
  switch ((error as { type: unknown }).type) {
    case 'entity.parse.failed':
      return new BadRequestError('The request body is not valid JSON.', 'malformed_json');
    case 'entity.too.large':
      return new PayloadTooLargeError(limit);
    case 'encoding.unsupported':
      return new UnsupportedContentEncodingError();
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError();
    case 'querystring.parse.rangeError':
      return new BodyTooDeepError(FORM_KEY_DEPTH);
    case 'request.aborted':
    case 'request.size.invalid':
      return new BadRequestError('The request body was incomplete.', 'incomplete_body');
    case 'parameters.too.many':
      return new BadRequestError('The form body has too many parameters.', 'too_many_parameters');
    default:
      return clientErrorOf(error) ?? error;
  }
}

/** Any other error body-parser marks as the client's (http-errors: a 4xx status, exposed). */
function clientErrorOf(error: object): AppError | undefined {
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose === true)
    return new BadRequestError('The request body could not be read.', 'malformed_body');
  return undefined;
}
