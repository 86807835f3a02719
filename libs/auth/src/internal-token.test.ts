import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '@vaultline/core';
import { InternalTokenSigner, InternalTokenVerifier, InvalidInternalToken, generateInternalKeyPair } from './internal-token';

const gatewayKeys = generateInternalKeyPair();
const otherKeys = generateInternalKeyPair();
const signer = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem);
const verifier = new InternalTokenVerifier('vault', { gateway: gatewayKeys.publicKeyPem });
const claims = { merchantId: 'm_1', scopes: ['merchant'] };

function expectRejected(token: string, detail?: RegExp): void {
  try {
    verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('invalid_internal_token');
    expect((error as UnauthorizedError).message).toBe('The internal token is not valid.');
    if (detail) expect((error as InvalidInternalToken).reason).toMatch(detail);
    return;
  }
  throw new Error('token was accepted');
}

describe('internal tokens', () => {
  it("when the merchant key's mode is signed in, then it comes back, and tokens of the two modes differ", () => {
    const live = signer.sign('vault', { ...claims, mode: 'live' });
    const test = signer.sign('vault', { ...claims, mode: 'test' });
    expect(live).not.toBe(test);
    expect(verifier.verify(live).mode).toBe('live');
    expect(verifier.verify(test).mode).toBe('test');
    expect(verifier.verify(signer.sign('vault', claims)).mode).toBeUndefined();
  });

  it("when the merchant key's id is signed in, then it comes back, and two keys of one merchant get tokens of their own", () => {
    const first = signer.sign('vault', { ...claims, mode: 'test', keyId: 'key-1' });
    const second = signer.sign('vault', { ...claims, mode: 'test', keyId: 'key-2' });
    expect(first).not.toBe(second);
    expect(verifier.verify(first).keyId).toBe('key-1');
    expect(verifier.verify(second).keyId).toBe('key-2');
    expect(verifier.verify(signer.sign('vault', claims)).keyId).toBeUndefined();
  });

  it('when an issuer has two public keys (a rotation), then tokens signed with either key are accepted, and a third key is refused', () => {
    const next = generateInternalKeyPair();
    const stranger = generateInternalKeyPair();
    const rotating = new InternalTokenVerifier('vault', { gateway: [gatewayKeys.publicKeyPem, next.publicKeyPem] });
    expect(rotating.verify(new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem).sign('vault', claims)).merchantId).toBe('m_1');
    expect(rotating.verify(new InternalTokenSigner('gateway', next.privateKeyPem).sign('vault', claims)).merchantId).toBe('m_1');
    expect(() => rotating.verify(new InternalTokenSigner('gateway', stranger.privateKeyPem).sign('vault', claims))).toThrow(UnauthorizedError);
  });

  it('when a token signed with the second of two keys has expired, then it is refused as expired, not as badly signed', () => {
    const next = generateInternalKeyPair();
    let now = Date.now();
    const rotating = new InternalTokenVerifier('vault', { gateway: [gatewayKeys.publicKeyPem, next.publicKeyPem] }, () => now);
    const token = new InternalTokenSigner('gateway', next.privateKeyPem, () => now).sign('vault', claims);
    now += 120_000;
    try {
      rotating.verify(token);
      throw new Error('accepted');
    } catch (error) {
      expect((error as { reason?: string }).reason).toMatch(/expired/);
    }
  });

  it('when a token carries an unknown mode, then it is rejected', () => {
    const token = jwt.sign({ merchant_id: 'm_1', scopes: [], mode: 'sandbox' }, gatewayKeys.privateKeyPem, {
      algorithm: 'ES256',
      issuer: 'gateway',
      audience: 'vault',
      expiresIn: 60,
    });
    expectRejected(token, /unknown mode/);
  });

  it('when a trusted issuer signs for this audience, then the claims come back', () => {
    const token = signer.sign('vault', claims);
    expect(verifier.verify(token)).toEqual({ issuer: 'gateway', audience: 'vault', ...claims });
    const payload = jwt.decode(token) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(typeof payload.jti).toBe('string');
  });

  it("when the gateway signs the merchant's name in, then it comes back with the claims, and a token with another name is another token", () => {
    const named = signer.sign('vault', { ...claims, mode: 'test', merchantName: 'Acme Coffee' });
    expect(verifier.verify(named)).toEqual({ issuer: 'gateway', audience: 'vault', ...claims, mode: 'test', merchantName: 'Acme Coffee' });
    expect(signer.sign('vault', { ...claims, mode: 'test', merchantName: 'Other Shop' })).not.toBe(named);
  });

  describe('reuse', () => {
    let nowMs = Date.parse('2026-11-22T10:00:00.000Z');
    const clock = () => nowMs;
    const reusing = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem, clock);
    const checking = new InternalTokenVerifier('vault', { gateway: gatewayKeys.publicKeyPem }, clock);

    it('when the same claims are signed within 30 s, then the same token comes back; after, a new one', () => {
      const first = reusing.sign('vault', claims);
      nowMs += 29_000;
      expect(reusing.sign('vault', claims)).toBe(first);
      nowMs += 1_000;
      const second = reusing.sign('vault', claims);
      expect(second).not.toBe(first);
      expect((jwt.decode(second) as jwt.JwtPayload).jti).not.toBe((jwt.decode(first) as jwt.JwtPayload).jti);
    });

    it('when the audience, merchant or scopes differ, then the tokens differ', () => {
      const base = reusing.sign('vault', claims);
      expect(reusing.sign('forwarder', claims)).not.toBe(base);
      expect(reusing.sign('vault', { ...claims, merchantId: 'm_2' })).not.toBe(base);
      expect(reusing.sign('vault', { ...claims, scopes: ['merchant', 'tokens:detokenize'] })).not.toBe(base);
      expect(checking.verify(reusing.sign('vault', { ...claims, merchantId: 'm_2' })).merchantId).toBe('m_2');
    });

    it('when a verified token is presented again, then it is accepted until it expires (plus tolerance), then rejected', () => {
      const token = reusing.sign('vault', claims);
      const exp = (jwt.decode(token) as jwt.JwtPayload).exp!;
      expect(checking.verify(token)).toEqual({ issuer: 'gateway', audience: 'vault', ...claims });
      nowMs = exp * 1000 + 4_000;
      expect(checking.verify(token).merchantId).toBe('m_1');
      nowMs = exp * 1000 + 6_000;
      expect(() => checking.verify(token)).toThrow(expect.objectContaining({ reason: expect.stringMatching(/expired/) }));
    });

    it('when a verified token is altered by one character, then the cache does not vouch for it', () => {
      const token = reusing.sign('vault', claims);
      checking.verify(token);
      const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
      expect(() => checking.verify(tampered)).toThrow(UnauthorizedError);
    });
  });

  it('when the token is addressed to another audience, then it is rejected', () => {
    expectRejected(signer.sign('forwarder', claims), /invalid/);
  });

  it('when the issuer is unknown or signs with another key, then it is rejected', () => {
    expectRejected(new InternalTokenSigner('stranger', otherKeys.privateKeyPem).sign('vault', claims), /does not trust/);
    expectRejected(new InternalTokenSigner('gateway', otherKeys.privateKeyPem).sign('vault', claims), /invalid/);
  });

  it('when the token has expired beyond the 5 s tolerance, then it is rejected; within it, accepted', () => {
    const now = Math.floor(Date.now() / 1000);
    const make = (exp: number) =>
      jwt.sign({ merchant_id: 'm', scopes: [], request_id: 'r', exp, iat: exp - 60 }, gatewayKeys.privateKeyPem, {
        algorithm: 'ES256',
        issuer: 'gateway',
        audience: 'vault',
      });
    expectRejected(make(now - 10), /expired/);
    expect(verifier.verify(make(now - 2)).merchantId).toBe('m');
  });

  it('when the algorithm is none or HS256 keyed with the public key, then it is rejected', () => {
    const unsigned = jwt.sign({ merchant_id: 'm', scopes: [], request_id: 'r' }, '', { algorithm: 'none', issuer: 'gateway', audience: 'vault' });
    expectRejected(unsigned);
    const hs = jwt.sign({ merchant_id: 'm', scopes: [], request_id: 'r' }, gatewayKeys.publicKeyPem, {
      algorithm: 'HS256',
      issuer: 'gateway',
      audience: 'vault',
      allowInsecureKeySizes: true,
    } as jwt.SignOptions);
    expectRejected(hs);
    expectRejected('not-a-token');
  });

  it('when the merchant id is missing, then it is rejected', () => {
    const token = jwt.sign({ scopes: [], request_id: 'r' }, gatewayKeys.privateKeyPem, {
      algorithm: 'ES256',
      issuer: 'gateway',
      audience: 'vault',
      expiresIn: 60,
    });
    expectRejected(token, /merchant/);
  });
});
