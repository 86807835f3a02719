import { MemoryDocumentStore } from '@vaultline/store';
import type { EchoBody } from './support/echo-upstream';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { call } from './support/http-call';

/**
 * The client address the gateway hands to the services (first X-Forwarded-For entry, which the
 * vault's per-address checkout limit reads), with and without TRUST_PROXY.
 * The public checkout route needs no key; the echo upstream shows what the vault would receive.
 */
describe('the client address the services receive', () => {
  let upstreams: Upstreams;
  const gateways: RunningGateway[] = [];
  beforeAll(async () => {
    upstreams = await startUpstreams();
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await upstreams.close();
  });

  const gatewayWith = async (env: Record<string, string>) => {
    const gateway = await startGateway(upstreams, new MemoryDocumentStore(), env);
    gateways.push(gateway);
    return gateway;
  };
  const forwardedForSeen = async (gateway: RunningGateway, headers: Record<string, string>) => {
    const answer = await call(gateway.url, '/sessions/ses_1/status', { headers });
    return (answer.json as unknown as EchoBody).headers['x-forwarded-for'];
  };

  it('when TRUST_PROXY is unset, then a client-set X-Forwarded-For is ignored and the services get the socket address', async () => {
    const gateway = await gatewayWith({});

    expect(await forwardedForSeen(gateway, { 'x-forwarded-for': '198.51.100.9' })).toBe('127.0.0.1');
  });

  it('when TRUST_PROXY=1 (one load balancer), then the services get the address the load balancer appended, not one the client wrote before it', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: '1' });

    expect(await forwardedForSeen(gateway, { 'x-forwarded-for': '198.51.100.9' })).toBe('198.51.100.9');
    expect(await forwardedForSeen(gateway, { 'x-forwarded-for': '6.6.6.6, 203.0.113.5' })).toBe('203.0.113.5');
  });

  it('when TRUST_PROXY names the proxies by CIDR, then the services get the nearest address outside them', async () => {
    const gateway = await gatewayWith({ TRUST_PROXY: 'loopback, 10.0.0.0/8' });

    expect(await forwardedForSeen(gateway, { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.1.2.3' })).toBe('203.0.113.5');
  });
});
