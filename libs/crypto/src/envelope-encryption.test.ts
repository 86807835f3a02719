import {
  DecryptionError,
  KeyRing,
  UnknownKeyVersionError,
  decryptRecord,
  encryptRecord,
  generateKey,
  newRecordKey,
  openRecordKey,
  rewrapRecordKey,
} from './index';

const ringOf = (...versions: number[]): KeyRing => new KeyRing(new Map(versions.map((v) => [v, generateKey()])), Math.max(...versions));
const ctx = { merchantId: 'm_1', recordId: 'tok_1' };

describe('envelope encryption of a record', () => {
  it('when a record is encrypted, then it decrypts to the same fields and the plaintext is nowhere in the output', () => {
    const ring = ringOf(1);
    const record = encryptRecord(ring, ctx, { pan: '4242424242424242', name: 'Ada Lovelace' });
    expect(JSON.stringify(record)).not.toContain('4242424242424242');
    expect(JSON.stringify(record)).not.toContain('Ada');
    expect(record.key.kek_version).toBe(1);
    expect(decryptRecord(ring, ctx, record)).toEqual({ pan: '4242424242424242', name: 'Ada Lovelace' });
  });

  it('when the same value is encrypted twice, then the ciphertexts differ (random IV, fresh data key)', () => {
    const ring = ringOf(1);
    const a = encryptRecord(ring, ctx, { pan: '4242424242424242' });
    const b = encryptRecord(ring, ctx, { pan: '4242424242424242' });
    expect(a.fields.pan).not.toBe(b.fields.pan);
    expect(a.key.wrapped).not.toBe(b.key.wrapped);
  });

  it('when a ciphertext is moved to another record, merchant or field, then decryption fails', () => {
    const ring = ringOf(1);
    const record = encryptRecord(ring, ctx, { pan: '4242424242424242', name: 'Ada' });
    expect(() => decryptRecord(ring, { ...ctx, recordId: 'tok_2' }, record)).toThrow(DecryptionError);
    expect(() => decryptRecord(ring, { ...ctx, merchantId: 'm_2' }, record)).toThrow(DecryptionError);
    const swapped = { ...record, fields: { pan: record.fields.name!, name: record.fields.pan! } };
    expect(() => decryptRecord(ring, ctx, swapped)).toThrow(DecryptionError);
  });

  it('when one byte of a ciphertext is changed, then decryption fails', () => {
    const ring = ringOf(1);
    const record = encryptRecord(ring, ctx, { pan: '4242424242424242' });
    const bytes = Buffer.from(record.fields.pan!, 'base64url');
    bytes[14] = bytes[14]! ^ 1;
    expect(() => decryptRecord(ring, ctx, { ...record, fields: { pan: bytes.toString('base64url') } })).toThrow(DecryptionError);
  });

  it('when the key version is altered in the record, then unwrapping fails even if that version exists', () => {
    const ring = ringOf(1, 2).withActive(1);
    const record = encryptRecord(ring, ctx, { pan: '4242424242424242' });
    expect(() => decryptRecord(ring, ctx, { ...record, key: { ...record.key, kek_version: 2 } })).toThrow(DecryptionError);
    expect(() => decryptRecord(ringOf(1), ctx, { ...record, key: { ...record.key, kek_version: 9 } })).toThrow(UnknownKeyVersionError);
  });

  it('when the data key is re-wrapped under a new KEK version, then old field ciphertexts still decrypt and the old KEK is no longer needed', () => {
    const v1 = generateKey();
    const v2 = generateKey();
    const ring = new KeyRing(new Map([[1, v1]]), 1);
    const { cipher, key } = newRecordKey(ring, ctx);
    const sealedCvc = cipher.encrypt('cvc', '123');
    const rotated = ring.with(2, v2, true);
    const rewrapped = rewrapRecordKey(rotated, ctx, key, 2);
    expect(rewrapped.kek_version).toBe(2);
    const onlyV2 = new KeyRing(new Map([[2, v2]]), 2);
    expect(openRecordKey(onlyV2, ctx, rewrapped).decrypt('cvc', sealedCvc)).toBe('123');
    expect(() => openRecordKey(onlyV2, ctx, key)).toThrow(UnknownKeyVersionError);
  });

  it('when a record cipher is serialised or a key ring stringified, then no key material appears', () => {
    const ring = ringOf(1);
    const { cipher } = newRecordKey(ring, ctx);
    expect(JSON.stringify({ cipher, ring })).toBe('{"cipher":"[RecordCipher]","ring":"[KeyRing]"}');
  });
});

describe('KeyRing.parse (VAULT_KEK_KEYS)', () => {
  it('when given "version:base64" pairs, then the highest version is active unless one is named', () => {
    const k1 = generateKey().toString('base64');
    const k2 = generateKey().toString('base64');
    expect(KeyRing.parse(`1:${k1}, 2:${k2}`).activeVersion).toBe(2);
    expect(KeyRing.parse(`1:${k1},2:${k2}`, 1).activeVersion).toBe(1);
    expect(
      KeyRing.parse(KeyRing.parse(`1:${k1},2:${k2}`).format())
        .key(1)
        .toString('base64'),
    ).toBe(k1);
  });

  it('when a key has the wrong length, a version repeats or the active version is missing, then it throws', () => {
    const k = generateKey().toString('base64');
    expect(() => KeyRing.parse('1:c2hvcnQ=')).toThrow(/32 bytes/);
    expect(() => KeyRing.parse(`1:${k},1:${k}`)).toThrow(/twice/);
    expect(() => KeyRing.parse(`1:${k}`, 3)).toThrow(UnknownKeyVersionError);
    expect(() => KeyRing.parse('')).toThrow(/at least one/);
  });
});
