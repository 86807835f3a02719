import { DecryptionError, fingerprint, generateKey } from './index';
import { decryptSecret, encryptSecret } from './secret-box';

describe('encryptSecret / decryptSecret', () => {
  it('when a secret is sealed, then it opens with the same key and context and does not contain the plaintext', () => {
    const key = generateKey();
    const sealed = encryptSecret(key, 'sk_live_abc123', 'job_1');
    expect(sealed.startsWith('sb1.')).toBe(true);
    expect(sealed).not.toContain('sk_live_abc123');
    expect(decryptSecret(key, sealed, 'job_1')).toBe('sk_live_abc123');
  });

  it('when the key or the context differ, then opening fails', () => {
    const key = generateKey();
    const sealed = encryptSecret(key, 'sk_live_abc123', 'job_1');
    expect(() => decryptSecret(key, sealed, 'job_2')).toThrow(DecryptionError);
    expect(() => decryptSecret(generateKey(), sealed, 'job_1')).toThrow(DecryptionError);
  });

  it('when the key is not 32 bytes, then it refuses to encrypt', () => {
    expect(() => encryptSecret(Buffer.alloc(16), 'x')).toThrow(/32 bytes/);
  });
});

describe('fingerprint', () => {
  it('when the same card is fingerprinted twice with one key, then the results match; with another key or merchant they differ', () => {
    const key = generateKey();
    const a = fingerprint(key, '4242424242424242', 'm_1');
    expect(fingerprint(key, '4242424242424242', 'm_1')).toBe(a);
    expect(fingerprint(generateKey(), '4242424242424242', 'm_1')).not.toBe(a);
    expect(fingerprint(key, '4242424242424242', 'm_2')).not.toBe(a);
    expect(fingerprint(key, '5555555555554444', 'm_1')).not.toBe(a);
    expect(a).not.toContain('4242');
  });
});
