import { randomUUID } from 'node:crypto';
import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

/**
 * Every id we mint is a UUIDv7: time-ordered, so ordering by id is ordering by creation,
 * which gives every store the same cursor pagination.
 */
export function newId(): string {
  return uuidv7();
}

/**
 * A UUIDv4 (122 random bits) for ids that are capabilities: whoever knows one may act (a checkout
 * session id opens the card form of its payment). A UUIDv7 minted next to another id shares its
 * timestamp and most of its counter, so it could be guessed from the other; this one cannot. Never
 * order by these ids.
 */
export function newCapabilityId(): string {
  return randomUUID();
}

/**
 * The smallest UUIDv7 of the millisecond `time`: every id minted before it sorts lower, every id minted at
 * or after it higher. A cursor for "created before" on the id order every store pages on.
 */
export function firstIdAt(time: Date): string {
  const hex = Math.max(0, Math.floor(time.getTime())).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidValidate(value);
}
