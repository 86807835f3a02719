import { randomBytes } from 'node:crypto';
import express from 'express';
import { InternalTokenVerifier, type InternalTokenSigner } from '@vaultline/auth';
import { newId } from '@vaultline/core';
import { startHttpServer, type RunningServer } from '@vaultline/http';

export interface MintedKey {
  id: string;
  apiKey: string;
  merchantId: string;
  /** The job's mode: /cde-import with this key creates tokens in it. */
  mode: 'test' | 'live';
  scopes: string[];
  label: string;
  expiresAt: string | null;
  revoked: boolean;
}

export interface FakeGateway {
  url: string;
  keys: Map<string, MintedKey>;
  /** Bodies that reached /cde-import, for checks that they carried what the platform was asked to send. */
  cdeImports: number;
  /**
   * The next `count` calls of /cde-import go wrong: 'unavailable' answers 503 without reaching the
   * vault; 'answer_lost' reaches the vault (the card is stored) and then answers 502, as a
   * proxy whose upstream answer was lost would.
   */
  disturbCdeImports(kind: 'unavailable' | 'answer_lost', count: number): void;
  stop(): Promise<void>;
}

/**
 * The two gateway functions the importer relies on, in small: the internal api-keys API (mint and
 * revoke job-scoped keys, internal JWT from the importer with api_keys:mint) and the public
 * /cde-import route, which accepts only such a key and passes the body to the real vault with a
 * gateway JWT (merchant id, the key's scopes and mode), relaying the vault's answer.
 */
export async function startFakeGateway(options: { importerPublicKey: string; vaultUrl: string; signer: InternalTokenSigner }): Promise<FakeGateway> {
  const keys = new Map<string, MintedKey>();
  const verifier = new InternalTokenVerifier('gateway', { importer: options.importerPublicKey });
  const state = { cdeImports: 0 };
  const disturbances: ('unavailable' | 'answer_lost')[] = [];
  const app = express();
  app.use(express.json());

  const internal = (req: express.Request) => {
    const token = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (!token) throw new Error('no token');
    const claims = verifier.verify(token);
    if (!claims.scopes.includes('api_keys:mint')) throw new Error('scope');
    return claims;
  };

  app.post('/internal/api-keys', (req, res) => {
    try {
      internal(req);
    } catch {
      res.status(401).json({ code: 'unauthorized' });
      return;
    }
    const body = req.body as { merchant_id: string; scopes: string[]; label: string; expires_at?: string; mode: 'test' | 'live' };
    if (body.mode !== 'test' && body.mode !== 'live') {
      res.status(422).type('application/problem+json').json({ code: 'validation_failed', field: 'mode', status: 422 });
      return;
    }
    const key: MintedKey = {
      id: newId(),
      apiKey: `sk_${body.mode}_${randomBytes(16).toString('hex')}`,
      merchantId: body.merchant_id,
      mode: body.mode,
      scopes: body.scopes,
      label: body.label,
      expiresAt: body.expires_at ?? null,
      revoked: false,
    };
    keys.set(key.id, key);
    res.status(201).json({ id: key.id, api_key: key.apiKey });
  });

  app.delete('/internal/api-keys/:id', (req, res) => {
    try {
      internal(req);
    } catch {
      res.status(401).json({ code: 'unauthorized' });
      return;
    }
    const key = keys.get(String(req.params.id));
    if (!key) {
      res.status(404).json({ code: 'api_key_not_found' });
      return;
    }
    key.revoked = true;
    res.status(204).end();
  });

  app.post('/cde-import', async (req, res) => {
    const presented = req.get('x-api-key');
    const key = [...keys.values()].find((k) => k.apiKey === presented && !k.revoked);
    if (!key) {
      res.status(401).type('application/problem+json').json({ code: 'unauthorized', status: 401 });
      return;
    }
    state.cdeImports += 1;
    const disturbance = disturbances.shift();
    if (disturbance === 'unavailable') {
      res.status(503).type('application/problem+json').json({ code: 'service_unavailable', status: 503 });
      return;
    }
    const answer = await fetch(`${options.vaultUrl}/cde-import`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${options.signer.sign('vault', { merchantId: key.merchantId, scopes: key.scopes, mode: key.mode })}`,
      },
      body: JSON.stringify(req.body),
    });
    const text = await answer.text();
    if (disturbance === 'answer_lost') {
      res.status(502).type('application/problem+json').json({ code: 'upstream_unavailable', status: 502 });
      return;
    }
    res
      .status(answer.status)
      .type(answer.headers.get('content-type') ?? 'application/json')
      .send(text);
  });

  const server: RunningServer = await startHttpServer(app);
  return {
    url: server.url,
    keys,
    get cdeImports() {
      return state.cdeImports;
    },
    disturbCdeImports: (kind, count) => disturbances.push(...Array<typeof kind>(count).fill(kind)),
    stop: () => server.close(),
  };
}
