import type { InternalClient } from '@vaultline/http';

type InternalRequest = Parameters<InternalClient['request']>[0];
import { GatewayKeyIssuerClient } from './gateway-key-issuer.client';

/** A gateway answering DELETE /internal/api-keys/:id with a fixed status and body. */
function gatewayAnswering(status: number, body: unknown): InternalClient {
  return { request: async () => ({ status, body }) } as unknown as InternalClient;
}

describe('revoking a job-scoped import key at the gateway', () => {
  it.each([
    [204, null],
    [404, { code: 'api_key_not_found' }],
    [409, { code: 'api_key_revoked' }],
  ])('when the gateway answers %s, then the key counts as revoked', async (status, body) => {
    await expect(new GatewayKeyIssuerClient(gatewayAnswering(status, body)).revoke({ merchantId: 'm_1', mode: 'test' }, 'key_1')).resolves.toBeUndefined();
  });

  it.each([
    [409, { code: 'concurrent_modification' }],
    [500, { code: 'internal_error' }],
    [503, { code: 'service_unavailable' }],
  ])('when the gateway answers %s, then revoking fails so that it is retried', async (status, body) => {
    await expect(new GatewayKeyIssuerClient(gatewayAnswering(status, body)).revoke({ merchantId: 'm_1', mode: 'test' }, 'key_1')).rejects.toThrow(
      /did not revoke/,
    );
  });
});

describe('the mode of a job-scoped import key', () => {
  it('when a live job mints and revokes its key, then the key is asked for in live mode, so the gateway mints a live key and /cde-import creates live tokens', async () => {
    const sent: InternalRequest[] = [];
    const gateway = {
      request: async (options: InternalRequest) => {
        sent.push(options);
        return options.method === 'POST' ? { status: 201, body: { id: 'key_1', api_key: 'sk_live_import' } } : { status: 204, body: null };
      },
    } as unknown as InternalClient;
    const issuer = new GatewayKeyIssuerClient(gateway);

    await issuer.mint({ merchantId: 'm_1', mode: 'live' }, 'job_1', new Date('2026-12-01T00:00:00Z'));
    await issuer.revoke({ merchantId: 'm_1', mode: 'live' }, 'key_1');

    expect(sent[0]?.body).toMatchObject({ merchant_id: 'm_1', scopes: ['cde_import'], mode: 'live' });
    expect(sent.map(({ method, merchantId, mode }) => ({ method, merchantId, mode }))).toEqual([
      { method: 'POST', merchantId: 'm_1', mode: 'live' },
      { method: 'DELETE', merchantId: 'm_1', mode: 'live' },
    ]);
  });
});
