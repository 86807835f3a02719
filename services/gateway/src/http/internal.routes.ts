import type express from 'express';
import { z } from 'zod';
import { SCOPES, SYSTEM_MERCHANT_ID } from '@vaultline/auth';
import { ForbiddenError } from '@vaultline/core';
import { authOf, parseInput, requireIssuer, requireScope } from '@vaultline/http';
import type { ApiKeys } from '../domain/api-keys';
import { toApiKeyView } from './api-key.view';

const mintSchema = z.strictObject({
  merchant_id: z.string().min(1),
  scopes: z.tuple([z.literal(SCOPES.cdeImport)]),
  label: z.string().min(1).max(200),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  /** The import job's mode: the key imports tokens into that mode only. */
  mode: z.enum(['test', 'live']),
});

/**
 * Internal endpoints (internal JWT), served on the gateway's internal listener only, never on the
 * merchant edge: the importer mints and revokes job-scoped keys that can call POST /cde-import and
 * nothing else.
 */
export function internalRoutes(router: express.Router, apiKeys: Pick<ApiKeys, 'issue' | 'revoke'>): void {
  const guard = [requireIssuer('importer'), requireScope(SCOPES.mintImportKeys)];

  router.post('/internal/api-keys', ...guard, async (req, res) => {
    const input = parseInput(mintSchema, req.body);
    assertSameMerchant(authOf(req).merchantId, input.merchant_id);
    const expiresAt = input.expires_at ? new Date(input.expires_at).toISOString() : null;
    const { record, apiKey } = await apiKeys.issue(input.merchant_id, { scopes: [SCOPES.cdeImport], label: input.label, expiresAt, mode: input.mode });
    res.status(201).json({ ...toApiKeyView(record), api_key: apiKey });
  });

  router.delete('/internal/api-keys/:id', ...guard, async (req, res) => {
    const merchantId = authOf(req).merchantId;
    await apiKeys.revoke(merchantId, String(req.params.id), SCOPES.cdeImport);
    res.status(204).end();
  });
}

/** A token for one merchant cannot mint keys for another (a system token may). */
function assertSameMerchant(tokenMerchant: string, bodyMerchant: string): void {
  if (tokenMerchant !== SYSTEM_MERCHANT_ID && tokenMerchant !== bodyMerchant) {
    throw new ForbiddenError('The internal token was issued for another merchant.', 'merchant_mismatch');
  }
}
