import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '@vaultline/core';
import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from './internal-token';

const gatewayKeys = generateInternalKeyPair();
const otherKeys = generateInternalKeyPair();
const signer = new InternalTokenSigner('gateway', gatewayKeys.privateKeyPem);
const verifier = new InternalTokenVerifier('vault', { gateway: gatewayKeys.publicKeyPem });
const claims = { merchantId: 'm_1', scopes: ['merchant'], requestId: 'req-1' };

function expectRejected(token: string, detail?: RegExp): void {
  try {
    verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('invalid_internal_token');
    if (detail) expect((error as UnauthorizedError).message).toMatch(detail);
    return;
  }
  throw new Error('token was accepted');
}

describe('internal tokens', () => {
  it('when a trusted issuer signs for this audience, then the claims come back', () => {
    const token = signer.sign('vault', claims);
    expect(verifier.verify(token)).toEqual({ issuer: 'gateway', audience: 'vault', ...claims });
    const payload = jwt.decode(token) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(typeof payload.jti).toBe('string');
  });

  it('when two tokens are signed for the same claims, then they differ (no cache, unique jti)', () => {
    expect(signer.sign('vault', claims)).not.toBe(signer.sign('vault', claims));
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
    const token = jwt.sign({ scopes: [], request_id: 'r' }, gatewayKeys.privateKeyPem, { algorithm: 'ES256', issuer: 'gateway', audience: 'vault', expiresIn: 60 });
    expectRejected(token, /merchant/);
  });
});
