import { DecryptionError, generateKey } from './aes-gcm';
import { AesGcmSecretSealer } from './secret-sealer';

describe('AesGcmSecretSealer', () => {
  it('when a secret is sealed, then it opens with the same key and context and the sealed value does not contain it', () => {
    const sealer = new AesGcmSecretSealer(generateKey());

    const sealed = sealer.seal('whsec_abc', 'webhook-endpoint:ep_1');

    expect(sealed).not.toContain('whsec_abc');
    expect(sealer.open(sealed, 'webhook-endpoint:ep_1')).toBe('whsec_abc');
  });

  it('when it is opened for another context or with another key, then opening fails', () => {
    const key = generateKey();
    const sealed = new AesGcmSecretSealer(key).seal('whsec_abc', 'webhook-endpoint:ep_1');

    expect(() => new AesGcmSecretSealer(key).open(sealed, 'webhook-endpoint:ep_2')).toThrow(DecryptionError);
    expect(() => new AesGcmSecretSealer(generateKey()).open(sealed, 'webhook-endpoint:ep_1')).toThrow(DecryptionError);
  });

  it('when a value was sealed before the sealer existed (the sb1 secret box stored by the notifier and importer), then it still opens', () => {
    // Sealed with encryptSecret(Buffer.alloc(32, 7), 'whsec_stored', 'webhook-endpoint:ep_1') before this port.
    const stored = 'sb1.p9I0cu2Ie9j5AKnQFYJpNcP-q1KglPGtNod9hfYrvQpx-MY6Aen3PQ';

    expect(new AesGcmSecretSealer(Buffer.alloc(32, 7)).open(stored, 'webhook-endpoint:ep_1')).toBe('whsec_stored');
  });

  it('when the key is not 32 bytes, then the sealer refuses it', () => {
    expect(() => new AesGcmSecretSealer(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
