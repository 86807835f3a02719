import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { UnavailableError } from '@vaultline/core';
import { createLogger } from '@vaultline/logger';
import { createServiceHttp } from './create-service-http';
import { authOf } from './request-context';
import { startHttpServer } from './http-server';
import { InternalClient } from './internal-client';

const keys = generateInternalKeyPair();
const signer = new InternalTokenSigner('forwarder', keys.privateKeyPem);

describe('InternalClient', () => {
  it('when it calls a service, then the service sees a valid token with the merchant, scopes and request id', async () => {
    const app = createServiceHttp({
      publicBaseUrl: 'https://vaultline.internal',
      service: 'vault',
      verifier: new InternalTokenVerifier('vault', { forwarder: keys.publicKeyPem }),
      logger: createLogger({ service: 'vault', level: 'silent' }),
      routes: (router) => {
        router.post('/tokens/:id/detokenize', (req, res) => {
          res.status(200).json({ auth: authOf(req), id: req.params.id, body: req.body as unknown, requestIdHeader: req.get('x-request-id') });
        });
      },
    });
    const server = await startHttpServer(app);
    const client = new InternalClient({ signer, audience: 'vault', baseUrl: server.url });
    try {
      const result = await client.request<Record<string, unknown>>({
        method: 'POST',
        path: '/tokens/t1/detokenize',
        merchantId: 'm_9',
        scopes: ['tokens:detokenize'],
        requestId: 'req-9',
        body: { purpose: 'forward' },
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        auth: {
          issuer: 'forwarder',
          merchantId: 'm_9',
          scopes: ['tokens:detokenize'],
          requestId: 'req-9',
          mode: null,
          keyId: null,
          merchantName: null,
          clientAddress: '127.0.0.1',
          trace: null,
        },
        id: 't1',
        body: { purpose: 'forward' },
        requestIdHeader: 'req-9',
      });
      const missing = await client.request<Record<string, unknown>>({ method: 'GET', path: '/nope', merchantId: 'm', scopes: [], requestId: 'r' });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('route_not_found');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('when the service is down, then the call fails with UnavailableError', async () => {
    const server = await startHttpServer(
      createServiceHttp({
        publicBaseUrl: 'https://vaultline.internal',
        service: 'vault',
        verifier: new InternalTokenVerifier('vault', {}),
        logger: createLogger({ service: 'vault', level: 'silent' }),
        routes: () => undefined,
      }),
    );
    const url = server.url;
    await server.close();
    const client = new InternalClient({ signer, audience: 'vault', baseUrl: url });
    await expect(client.request({ method: 'GET', path: '/x', merchantId: 'm', scopes: [], requestId: 'r' })).rejects.toBeInstanceOf(UnavailableError);
    await client.close();
  });
});
