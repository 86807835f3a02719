import { MemoryDocumentStore } from '@vaultline/store';
import { startGateway, startUpstreams, type Upstreams } from './support/gateway-harness';
import { call } from './support/http-call';

const HSTS = 'max-age=31536000; includeSubDomains';

describe('Strict-Transport-Security at the edge', () => {
  let upstreams: Upstreams;
  beforeAll(async () => {
    upstreams = await startUpstreams();
  });
  afterAll(() => upstreams.close());

  it('when PUBLIC_BASE_URL is https, then every answer, errors included, tells browsers to use https only', async () => {
    const gateway = await startGateway(upstreams, new MemoryDocumentStore(), { PUBLIC_BASE_URL: 'https://api.vaultline.test' });
    try {
      for (const path of ['/health', '/tokens', '/docs']) {
        const answer = await call(gateway.url, path);
        expect({ path, hsts: answer.headers.get('strict-transport-security') }).toEqual({ path, hsts: HSTS });
      }
    } finally {
      await gateway.close();
    }
  });

  it('when PUBLIC_BASE_URL is http and TLS is off, then no HSTS header is sent (a browser would pin an unreachable https)', async () => {
    const gateway = await startGateway(upstreams, new MemoryDocumentStore(), { PUBLIC_BASE_URL: 'http://localhost:8080' });
    try {
      expect((await call(gateway.url, '/health')).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await gateway.close();
    }
  });

  it('when only one of TLS_CERT_FILE and TLS_KEY_FILE is set, then the configuration is refused naming the missing one', async () => {
    await expect(startGateway(upstreams, new MemoryDocumentStore(), { TLS_CERT_FILE: '/tmp/cert.pem' })).rejects.toThrow(/TLS_KEY_FILE/);
  });
});
