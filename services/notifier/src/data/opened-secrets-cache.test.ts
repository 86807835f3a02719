import { AesGcmSecretSealer, DecryptionError } from '@vaultline/crypto';
import { OpenedSecretsCache } from './opened-secrets-cache';

/** A sealer that counts how often it really opens. */
function countingSealer() {
  const sealer = new AesGcmSecretSealer(Buffer.alloc(32, 3));
  let opens = 0;
  return {
    sealer: { seal: sealer.seal.bind(sealer), open: (sealed: string, context: string) => (opens++, sealer.open(sealed, context)) },
    opens: () => opens,
  };
}

describe('OpenedSecretsCache', () => {
  it('when the same sealed secret is opened again, then it is decrypted once', () => {
    const { sealer, opens } = countingSealer();
    const cache = new OpenedSecretsCache(sealer);
    const sealed = cache.seal('whsec_abc', 'webhook-endpoint:ep_1');

    expect(cache.open(sealed, 'webhook-endpoint:ep_1')).toBe('whsec_abc');
    expect(cache.open(sealed, 'webhook-endpoint:ep_1')).toBe('whsec_abc');
    expect(opens()).toBe(1);
  });

  it('when a secret opened for one context is asked for another, then the cache does not answer and opening fails', () => {
    const { sealer } = countingSealer();
    const cache = new OpenedSecretsCache(sealer);
    const sealed = cache.seal('whsec_abc', 'webhook-endpoint:ep_1');
    cache.open(sealed, 'webhook-endpoint:ep_1');

    expect(() => cache.open(sealed, 'webhook-endpoint:ep_2')).toThrow(DecryptionError);
  });

  it('when more secrets are opened than it keeps, then it starts over instead of growing', () => {
    const { sealer, opens } = countingSealer();
    const cache = new OpenedSecretsCache(sealer, 2);
    const sealed = ['a', 'b', 'c'].map((name) => cache.seal(`whsec_${name}`, 'ctx'));

    sealed.forEach((value) => cache.open(value, 'ctx'));
    cache.open(sealed[0]!, 'ctx');

    expect(opens()).toBe(4);
  });
});
