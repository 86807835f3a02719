import { apiKeyMatches, apiKeyMode, apiKeyPrefix, generateApiKey, hashApiKey } from './api-key';

describe('API keys', () => {
  it('when a key is generated, then it has the mode prefix and 32 base62 characters, and keys differ', () => {
    const test = generateApiKey('test');
    const live = generateApiKey('live');
    expect(test).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(live).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(new Set(Array.from({ length: 200 }, () => generateApiKey('test'))).size).toBe(200);
    expect(apiKeyMode(test)).toBe('test');
    expect(apiKeyMode('pk_test_x')).toBeUndefined();
  });

  it('when a key is hashed, then the hash depends on the pepper and matches only the same key', () => {
    const key = generateApiKey('test');
    const hash = hashApiKey(key, 'pepper-1');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(hashApiKey(key, 'pepper-2'));
    expect(apiKeyMatches(key, hash, 'pepper-1')).toBe(true);
    expect(apiKeyMatches(`${key}x`, hash, 'pepper-1')).toBe(false);
    expect(apiKeyMatches(key, hash, 'pepper-2')).toBe(false);
  });

  it('when a key is displayed, then only its first 12 characters are shown', () => {
    expect(apiKeyPrefix('sk_test_ABCDEFGHIJKLMNOP')).toBe('sk_test_ABCD');
  });
});
