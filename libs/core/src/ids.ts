import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

/**
 * Every id we mint is a UUIDv7: time-ordered, so ordering by id is ordering by creation,
 * which gives every store the same cursor pagination.
 */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidValidate(value);
}
