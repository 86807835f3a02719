import type { InternalClient } from '@vaultline/http';
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
    await expect(new GatewayKeyIssuerClient(gatewayAnswering(status, body)).revoke('m_1', 'key_1')).resolves.toBeUndefined();
  });

  it.each([
    [409, { code: 'concurrent_modification' }],
    [500, { code: 'internal_error' }],
    [503, { code: 'service_unavailable' }],
  ])('when the gateway answers %s, then revoking fails so that it is retried', async (status, body) => {
    await expect(new GatewayKeyIssuerClient(gatewayAnswering(status, body)).revoke('m_1', 'key_1')).rejects.toThrow(/did not revoke/);
  });
});
