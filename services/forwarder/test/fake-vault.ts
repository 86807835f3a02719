import express from 'express';
import { InternalTokenVerifier } from '@vaultline/auth';
import { startHttpServer, type RunningServer } from '@vaultline/http';

export interface FakeToken {
  merchantId: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string | null;
  cvcStatus: 'available' | 'expired' | 'not_collected';
  deleted?: boolean;
}

/**
 * A stand-in for the vault's internal detokenize endpoint, exactly as agreed:
 * POST /internal/tokens/:id/detokenize {purpose}, internal JWT from the forwarder with tokens:detokenize.
 */
export async function startFakeVault(
  forwarderPublicKeyPem: string,
): Promise<RunningServer & { tokens: Map<string, FakeToken>; calls: Array<{ tokenId: string; merchantId: string; purpose: unknown }> }> {
  const verifier = new InternalTokenVerifier('vault', { forwarder: forwarderPublicKeyPem });
  const tokens = new Map<string, FakeToken>();
  const calls: Array<{ tokenId: string; merchantId: string; purpose: unknown }> = [];
  const app = express();
  app.use(express.json());
  app.post('/internal/tokens/:id/detokenize', (req, res) => {
    const bearer = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '';
    let claims;
    try {
      claims = verifier.verify(bearer);
    } catch {
      res.status(401).json({ code: 'invalid_internal_token' });
      return;
    }
    if (!claims.scopes.includes('tokens:detokenize')) {
      res.status(403).json({ code: 'insufficient_scope' });
      return;
    }
    const id = String(req.params.id);
    calls.push({ tokenId: id, merchantId: claims.merchantId, purpose: (req.body as { purpose?: unknown }).purpose });
    const token = tokens.get(id);
    if (!token || token.merchantId !== claims.merchantId) {
      res.status(404).type('application/problem+json').json({ code: 'token_not_found', status: 404 });
      return;
    }
    if (token.deleted) {
      res.status(410).type('application/problem+json').json({ code: 'token_deleted', status: 410 });
      return;
    }
    res.json({
      token_id: id,
      number: token.number,
      exp_month: token.expMonth,
      exp_year: token.expYear,
      cvc: token.cvcStatus === 'available' ? token.cvc : null,
      cvc_status: token.cvcStatus,
      cardholder_name: 'Ada "Lovelace" & Co',
      scheme: 'VISA',
    });
  });
  const server = await startHttpServer(app);
  return Object.assign(server, { tokens, calls });
}
