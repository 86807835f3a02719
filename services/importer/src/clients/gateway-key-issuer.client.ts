import { newId, type Scope } from '@vaultline/core';
import { SCOPES } from '@vaultline/auth';
import type { InternalClient } from '@vaultline/http';
import { ImportCredentialError } from '../domain/import-errors';
import type { ImportCredentialIssuer } from '../domain/ports';

/**
 * Mints and revokes job-scoped keys (scope cde_import only) at the gateway's internal API. The key is
 * minted in the job's mode (body and internal token), so /cde-import creates the job's tokens in it.
 */
export class GatewayKeyIssuerClient implements ImportCredentialIssuer {
  constructor(private readonly gateway: InternalClient) {}

  async mint({ merchantId, mode }: Scope, jobId: string, expiresAt: Date): Promise<{ id: string; apiKey: string }> {
    const response = await this.gateway.request<{ id?: unknown; api_key?: unknown }>({
      method: 'POST',
      path: '/internal/api-keys',
      merchantId,
      mode,
      scopes: [SCOPES.mintImportKeys],
      requestId: newId(),
      body: { merchant_id: merchantId, scopes: [SCOPES.cdeImport], label: `import ${jobId}`, expires_at: expiresAt.toISOString(), mode },
    });
    const { id, api_key: apiKey } = response.body ?? {};
    if (response.status !== 201 || typeof id !== 'string' || typeof apiKey !== 'string') {
      throw new ImportCredentialError(`The gateway did not mint an import key (HTTP ${response.status}).`);
    }
    return { id, apiKey };
  }

  async revoke({ merchantId, mode }: Scope, keyId: string): Promise<void> {
    const response = await this.gateway.request({
      method: 'DELETE',
      path: `/internal/api-keys/${encodeURIComponent(keyId)}`,
      merchantId,
      mode,
      scopes: [SCOPES.mintImportKeys],
      requestId: newId(),
    });
    // 404 (gone or expired) and 409 api_key_revoked (revoked by a concurrent settle of the same job)
    // are the state we want: revoking is idempotent from the importer's point of view.
    const alreadyRevoked = response.status === 409 && (response.body as { code?: string } | null)?.code === 'api_key_revoked';
    if (response.status !== 204 && response.status !== 200 && response.status !== 404 && !alreadyRevoked) {
      throw new ImportCredentialError(`The gateway did not revoke the import key (HTTP ${response.status}).`);
    }
  }
}
