import { generateKey, open, seal } from './aes-gcm';
import type { KeyRing } from './key-ring';

/**
 * Envelope encryption for records that hold card data.
 *
 * - Each record gets its own random 256-bit data key (DEK). A DEK encrypts only that record's few
 *   fields (PAN, name, the security code in the TTL store), so no key comes near the 2^32
 *   random-IV limit of AES-GCM. The KEK wraps one DEK per record (and one per re-wrap); rotate the
 *   KEK well before 2^32 wraps, which the key-rotation job makes routine.
 * - The DEK is wrapped (AES-256-GCM) by a KEK version; the version is stored beside it in every record.
 * - Associated data binds every ciphertext to its merchant, its record id and its field name, and the
 *   wrapped DEK to its merchant, record id and KEK version: swapping ciphertexts between records,
 *   fields or tenants fails authentication.
 */
export interface RecordContext {
  merchantId: string;
  recordId: string;
}

export interface WrappedDataKey {
  kek_version: number;
  /** base64url(iv | wrapped DEK | tag) */
  wrapped: string;
}

export interface EncryptedRecord {
  key: WrappedDataKey;
  /** Field name → base64url(iv | ciphertext | tag). */
  fields: Record<string, string>;
}

/** A record's unwrapped data key; lives only in memory for the duration of one operation. */
export class RecordCipher {
  readonly #dataKey: Buffer;
  readonly #context: RecordContext;

  constructor(dataKey: Buffer, context: RecordContext) {
    this.#dataKey = dataKey;
    this.#context = context;
  }

  encrypt(field: string, value: string): string {
    return seal(this.#dataKey, Buffer.from(value, 'utf8'), fieldAad(this.#context, field)).toString('base64url');
  }

  decrypt(field: string, sealed: string): string {
    return open(this.#dataKey, Buffer.from(sealed, 'base64url'), fieldAad(this.#context, field)).toString('utf8');
  }

  toJSON(): string {
    return '[RecordCipher]';
  }
}

/** Makes a fresh data key for a record, wrapped under the active KEK. */
export function newRecordKey(ring: KeyRing, context: RecordContext): { cipher: RecordCipher; key: WrappedDataKey } {
  const dataKey = generateKey();
  return { cipher: new RecordCipher(dataKey, context), key: wrap(ring, context, dataKey, ring.activeVersion) };
}

export function openRecordKey(ring: KeyRing, context: RecordContext, key: WrappedDataKey): RecordCipher {
  return new RecordCipher(unwrap(ring, context, key), context);
}

/** Re-wraps a record's data key under another KEK version; the field ciphertexts stay as they are. */
export function rewrapRecordKey(ring: KeyRing, context: RecordContext, key: WrappedDataKey, toVersion: number): WrappedDataKey {
  if (key.kek_version === toVersion) return key;
  return wrap(ring, context, unwrap(ring, context, key), toVersion);
}

export function encryptRecord(ring: KeyRing, context: RecordContext, fields: Record<string, string>): EncryptedRecord {
  const { cipher, key } = newRecordKey(ring, context);
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) sealed[name] = cipher.encrypt(name, value);
  return { key, fields: sealed };
}

export function decryptRecord(ring: KeyRing, context: RecordContext, record: EncryptedRecord): Record<string, string> {
  const cipher = openRecordKey(ring, context, record.key);
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.fields)) plain[name] = cipher.decrypt(name, value);
  return plain;
}

function wrap(ring: KeyRing, context: RecordContext, dataKey: Buffer, version: number): WrappedDataKey {
  return { kek_version: version, wrapped: seal(ring.key(version), dataKey, keyAad(context, version)).toString('base64url') };
}

function unwrap(ring: KeyRing, context: RecordContext, key: WrappedDataKey): Buffer {
  return open(ring.key(key.kek_version), Buffer.from(key.wrapped, 'base64url'), keyAad(context, key.kek_version));
}

const keyAad = (c: RecordContext, version: number): Buffer => Buffer.from(`dek|${c.merchantId}|${c.recordId}|${version}`, 'utf8');
const fieldAad = (c: RecordContext, field: string): Buffer => Buffer.from(`field|${c.merchantId}|${c.recordId}|${field}`, 'utf8');
