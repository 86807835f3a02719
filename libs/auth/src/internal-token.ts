import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '@vaultline/core';
import type { ApiKeyMode } from './api-key';

/** What a verified internal JWT says: who called, for which merchant, with which rights. */
export interface InternalClaims {
  issuer: string;
  audience: string;
  merchantId: string;
  scopes: string[];
  /** The mode of the merchant's API key (test or live) when the call carries a merchant request; absent otherwise. */
  mode?: ApiKeyMode;
  /** The id of the merchant's API key when the call carries a merchant request made with one; absent otherwise. */
  keyId?: string;
  /** The merchant's name as the gateway knows it (the hosted page shows it by default); absent when not a merchant request. */
  merchantName?: string;
}

/** What a signer puts in a token. */
export type InternalTokenClaims = Pick<InternalClaims, 'merchantId' | 'scopes' | 'mode' | 'keyId' | 'merchantName'>;

const ALGORITHM = 'ES256';
const LIFETIME_SECONDS = 60;
/** A signed token is handed out again while it has at least this long to live. */
const REUSE_SECONDS = 30;
const CLOCK_TOLERANCE_SECONDS = 5;
/** Bounds both caches (merchants × audiences × scope sets in use); on overflow a cache starts afresh. */
const CACHE_LIMIT = 10_000;

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
 * Signs short-lived internal tokens with this service as issuer.
 *
 * A token names only who may do what (issuer, audience, merchant, scopes, and for a merchant's request the
 * mode and id of its API key) — the request id travels
 * in X-Request-Id — so one token serves every call with the same claims during the first half of
 * its 60 s life. An ES256 signature and its verification cost more than the rest of a typical
 * internal call (docs/benchmarks.md); reuse makes both once per claim set every 30 s. A stolen token is
 * no more useful than before: it was replayable for its lifetime anyway (jti is not tracked).
 */
export class InternalTokenSigner {
  // Parsed once: handing jsonwebtoken the PEM string would re-parse it on every call.
  private readonly privateKey: KeyObject;
  private readonly issued = new Map<string, { token: string; reuseUntilMs: number }>();

  constructor(
    readonly issuer: string,
    privateKeyPem: string,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.privateKey = createPrivateKey(privateKeyPem);
  }

  sign(audience: string, claims: InternalTokenClaims): string {
    const key = `${audience}\u0000${claims.merchantId}\u0000${claims.scopes.join(' ')}\u0000${claims.mode ?? ''}\u0000${claims.keyId ?? ''}\u0000${claims.merchantName ?? ''}`;
    const now = this.nowMs();
    const cached = this.issued.get(key);
    if (cached && cached.reuseUntilMs > now) return cached.token;
    const issuedAt = Math.floor(now / 1000);
    const token = jwt.sign(
      {
        merchant_id: claims.merchantId,
        scopes: [...claims.scopes],
        ...(claims.mode ? { mode: claims.mode } : {}),
        ...(claims.keyId ? { key_id: claims.keyId } : {}),
        ...(claims.merchantName ? { merchant_name: claims.merchantName } : {}),
        iat: issuedAt,
        exp: issuedAt + LIFETIME_SECONDS,
      },
      this.privateKey,
      {
        algorithm: ALGORITHM,
        issuer: this.issuer,
        audience,
        jwtid: randomUUID(),
      },
    );
    if (this.issued.size >= CACHE_LIMIT) this.issued.clear();
    this.issued.set(key, { token, reuseUntilMs: (issuedAt + LIFETIME_SECONDS - REUSE_SECONDS) * 1000 });
    return token;
  }
}

/**
 * Verifies internal tokens addressed to one audience, signed by one of the trusted issuers.
 * The algorithm is pinned (no `none`, no HS256 with a public key as secret); the issuer is
 * read from the unverified payload only to pick its public keys, then verified with them.
 *
 * An issuer may have several public keys (a list of PEMs): during a rotation the callees trust the old
 * and the new key, so the issuer can switch its private key without a single call being refused.
 */
export class InternalTokenVerifier {
  private readonly publicKeys = new Map<string, KeyObject[]>();
  /** Tokens already verified, by their exact text, until they expire: a hit skips the signature check. */
  private readonly verified = new Map<string, { claims: InternalClaims; validUntilMs: number }>();

  constructor(
    readonly audience: string,
    trustedIssuers: Record<string, string | string[]>,
    private readonly nowMs: () => number = Date.now,
  ) {
    for (const [issuer, pems] of Object.entries(trustedIssuers)) {
      this.publicKeys.set(
        issuer,
        (Array.isArray(pems) ? pems : [pems]).map((pem) => createPublicKey(pem)),
      );
    }
  }

  verify(token: string): InternalClaims {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.validUntilMs > this.nowMs()) return cached.claims;
      this.verified.delete(token);
    }
    return this.verifySignature(token);
  }

  private verifySignature(token: string): InternalClaims {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object' || decoded.header.alg !== ALGORITHM) {
      throw invalid('The internal token is malformed.');
    }
    const issuer = decoded.payload.iss;
    const publicKeys = typeof issuer === 'string' ? this.publicKeys.get(issuer) : undefined;
    if (!issuer || !publicKeys?.length) throw invalid('The internal token comes from an issuer this service does not trust.');
    const payload = this.verifyWithAny(token, issuer, publicKeys);

    const { merchant_id: merchantId, scopes, exp, mode, key_id: keyId, merchant_name: merchantName } = payload as Record<string, unknown>;
    if (typeof merchantId !== 'string' || merchantId.length === 0) throw invalid('The internal token has no merchant id.');
    if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string')) throw invalid('The internal token has no scopes.');
    if (typeof exp !== 'number') throw invalid('The internal token has no expiry.');
    if (mode !== undefined && mode !== 'test' && mode !== 'live') throw invalid('The internal token has an unknown mode.');
    if (keyId !== undefined && (typeof keyId !== 'string' || keyId.length === 0)) throw invalid('The internal token has a malformed key id.');
    const claims: InternalClaims = Object.freeze({
      issuer,
      audience: this.audience,
      merchantId,
      scopes: Object.freeze([...scopes]) as string[],
      ...(mode ? { mode } : {}),
      ...(typeof keyId === 'string' ? { keyId } : {}),
      ...(typeof merchantName === 'string' && merchantName.length > 0 ? { merchantName } : {}),
    });
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, { claims, validUntilMs: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 });
    return claims;
  }

  /** The payload once one of the issuer's keys verifies the signature; a bad signature tries the next key. */
  private verifyWithAny(token: string, issuer: string, publicKeys: KeyObject[]): jwt.JwtPayload {
    let failure: unknown;
    for (const publicKey of publicKeys) {
      try {
        const verified = jwt.verify(token, publicKey, {
          algorithms: [ALGORITHM],
          audience: this.audience,
          issuer,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          clockTimestamp: Math.floor(this.nowMs() / 1000),
        });
        if (typeof verified === 'string') throw new Error('string payload');
        return verified;
      } catch (error) {
        failure = error;
        if (!(error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature')) break;
      }
    }
    const reason =
      failure instanceof jwt.TokenExpiredError ? 'has expired' : failure instanceof jwt.JsonWebTokenError ? `is invalid (${failure.message})` : 'is invalid';
    throw invalid(`The internal token ${reason}.`);
  }
}

/**
 * A refused internal token. The answer says only that it is not valid: why (a bad signature, an
 * untrusted issuer, an expiry) would tell a prober which part to forge next. `reason` is for the log.
 */
export class InvalidInternalToken extends UnauthorizedError {
  constructor(readonly reason: string) {
    super('The internal token is not valid.', 'invalid_internal_token');
  }
}

function invalid(reason: string): InvalidInternalToken {
  return new InvalidInternalToken(reason);
}
