/**
 * Test and live are two worlds. Every resource a merchant creates belongs to the mode of the key that
 * created it, and a key of the other mode cannot see it (it answers 404, as for another merchant's).
 */
export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];

export function isMode(value: unknown): value is Mode {
  return value === 'test' || value === 'live';
}

/**
 * Whose resource, in which world: every repository query takes one, so a query that forgets the
 * mode does not compile. Built from the verified caller (the internal JWT's merchant and key mode)
 * or from a stored document's own merchant_id and mode, never from a request body.
 */
export interface Scope {
  readonly merchantId: string;
  readonly mode: Mode;
}

export function scopeOf(merchantId: string, mode: Mode): Scope {
  return { merchantId, mode };
}

/** The scope a stored document belongs to. */
export function scopeOfDocument(doc: { merchant_id: string; mode: Mode }): Scope {
  return { merchantId: doc.merchant_id, mode: doc.mode };
}
