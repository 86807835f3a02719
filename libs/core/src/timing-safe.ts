import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of two strings of any length (hashes both first). */
export function constantTimeEquals(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
