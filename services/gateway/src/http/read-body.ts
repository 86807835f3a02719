import type { Request } from 'express';
import { PayloadTooLargeError, hasBody } from '@vaultline/http';

/** 413 as early as possible: a declared length over the limit is refused before reading anything. */
export function assertDeclaredLength(req: Request, limitBytes: number): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) {
    // The unread body would poison a kept-alive connection.
    req.res?.setHeader('Connection', 'close');
    throw new PayloadTooLargeError(describeLimit(limitBytes));
  }
}

/** The raw body bytes (the gateway never parses merchant bodies), at most `limitBytes`. */
export async function readRawBody(req: Request, limitBytes: number): Promise<Buffer | null> {
  if (!hasBody(req)) return null;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      req.res?.setHeader('Connection', 'close');
      throw new PayloadTooLargeError(describeLimit(limitBytes));
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

function describeLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
