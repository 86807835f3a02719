import express from 'express';
import { InternalTokenSigner, InternalTokenVerifier, generateInternalKeyPair } from '@vaultline/auth';
import { createLogger } from '@vaultline/logger';
import { createServiceHttp } from './create-service-http';
import { testClockOf } from './request-context';
import { startHttpServer, type RunningServer } from './http-server';

const keys = generateInternalKeyPair();
const signer = new InternalTokenSigner('gateway', keys.privateKeyPem);

describe('the test clock (X-Test-Now)', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = createServiceHttp({
      publicBaseUrl: 'https://vaultline.internal',
      service: 'payment-orchestrator',
      verifier: new InternalTokenVerifier('payment-orchestrator', { gateway: keys.publicKeyPem }),
      logger: createLogger({ service: 'test', level: 'silent' }),
      routes: (router: express.Router) => {
        router.get('/now', (req, res) => {
          res.json({ at: testClockOf(req)?.toISOString() ?? null });
        });
      },
    });
    server = await startHttpServer(app, 0, '127.0.0.1');
  });

  afterAll(() => server.close());

  const get = (mode: 'test' | 'live' | undefined, testNow?: string) =>
    fetch(`${server.url}/now`, {
      headers: {
        authorization: `Bearer ${signer.sign('payment-orchestrator', { merchantId: 'm_1', scopes: ['merchant'], mode })}`,
        ...(testNow ? { 'x-test-now': testNow } : {}),
      },
    });

  it('when a test-mode request carries X-Test-Now, then that time is the effective time', async () => {
    const response = await get('test', '2027-02-01T09:30:00+01:00');
    expect(await response.json()).toEqual({ at: '2027-02-01T08:30:00.000Z' });
  });

  it('when the request carries no X-Test-Now, then there is no test clock', async () => {
    expect(await (await get('test')).json()).toEqual({ at: null });
  });

  it('when a live-mode or modeless call carries X-Test-Now, then it is ignored', async () => {
    expect(await (await get('live', '2027-02-01T09:30:00Z')).json()).toEqual({ at: null });
    expect(await (await get(undefined, '2027-02-01T09:30:00Z')).json()).toEqual({ at: null });
  });

  it('when X-Test-Now is not an ISO 8601 time with a zone, then the answer is 422 invalid_test_clock naming the header', async () => {
    for (const bad of ['tomorrow', '2027-02-01', '2027-02-01T09:30:00', '2027-13-01T09:30:00Z']) {
      const response = await get('test', bad);
      expect(response.status).toBe(422);
      const problem = (await response.json()) as { code: string; field: string };
      expect(problem).toMatchObject({ code: 'invalid_test_clock', field: 'X-Test-Now' });
    }
  });
});
