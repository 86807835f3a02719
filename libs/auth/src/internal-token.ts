import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '@vaultline/core';

/** What a verified internal JWT says: who called, for which merchant, with which rights. */
export interface InternalClaims {
  issuer: string;
  audience: string;
  merchantId: string;
  scopes: string[];
  requestId: string;
}

const ALGORITHM = 'ES256';
const LIFETIME_SECONDS = 60;
const CLOCK_TOLERANCE_SECONDS = 5;

/** A fresh EC P-256 key pair (PEM) for signing internal tokens with ES256. */
export function generateInternalKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/**
 * Signs short-lived internal tokens with this service as issuer. Not cached: each token
 * carries its request id (and a jti), so one token belongs to exactly one request.
 */
export class InternalTokenSigner {
  // Parsed once: handing jsonwebtoken the PEM string would re-parse it on every call.
  private readonly privateKey: KeyObject;

  constructor(
    readonly issuer: string,
    privateKeyPem: string,
  ) {
    this.privateKey = createPrivateKey(privateKeyPem);
  }

  sign(audience: string, claims: { merchantId: string; scopes: string[]; requestId: string }): string {
    return jwt.sign(
      { merchant_id: claims.merchantId, scopes: claims.scopes, request_id: claims.requestId },
      this.privateKey,
      { algorithm: ALGORITHM, issuer: this.issuer, audience, expiresIn: LIFETIME_SECONDS, jwtid: randomUUID() },
    );
  }
}

/**
 * Verifies internal tokens addressed to one audience, signed by one of the trusted issuers.
 * The algorithm is pinned (no `none`, no HS256 with a public key as secret); the issuer is
 * read from the unverified payload only to pick its public key, then verified with it.
 */
export class InternalTokenVerifier {
  private readonly publicKeys = new Map<string, KeyObject>();

  constructor(
    readonly audience: string,
    trustedIssuers: Record<string, string>,
  ) {
    for (const [issuer, pem] of Object.entries(trustedIssuers)) this.publicKeys.set(issuer, createPublicKey(pem));
  }

  verify(token: string): InternalClaims {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object' || decoded.header.alg !== ALGORITHM) {
      throw invalid('The internal token is malformed.');
    }
    const issuer = decoded.payload.iss;
    const publicKey = typeof issuer === 'string' ? this.publicKeys.get(issuer) : undefined;
    if (!issuer || !publicKey) throw invalid('The internal token comes from an issuer this service does not trust.');

    let payload: jwt.JwtPayload;
    try {
      const verified = jwt.verify(token, publicKey, {
        algorithms: [ALGORITHM],
        audience: this.audience,
        issuer,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      if (typeof verified === 'string') throw new Error('string payload');
      payload = verified;
    } catch (error) {
      const reason = error instanceof jwt.TokenExpiredError ? 'has expired' : error instanceof jwt.JsonWebTokenError ? `is invalid (${error.message})` : 'is invalid';
      throw invalid(`The internal token ${reason}.`);
    }

    const { merchant_id: merchantId, scopes, request_id: requestId } = payload as Record<string, unknown>;
    if (typeof merchantId !== 'string' || merchantId.length === 0) throw invalid('The internal token has no merchant id.');
    if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string')) throw invalid('The internal token has no scopes.');
    if (typeof requestId !== 'string') throw invalid('The internal token has no request id.');
    return { issuer, audience: this.audience, merchantId, scopes, requestId };
  }
}

function invalid(detail: string): UnauthorizedError {
  return new UnauthorizedError(detail, 'invalid_internal_token');
}
