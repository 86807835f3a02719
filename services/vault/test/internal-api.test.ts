import { randomUUID } from 'node:crypto';
import type { DetokenizeRequest } from '@vaultline/contracts';
import { ADMIN, aCard, MERCHANT, OTHER_MERCHANT, startVault, type VaultHarness } from './vault-harness';

/**
 * The vault's internal API object, as a caller in the same process uses it (embedded profile):
 * the same rule as POST /internal/tokens/{id}/detokenize, without HTTP.
 */
describe('the vault internal API: detokenize in-process', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  const api = () => vault.app.exposedApis.vault;
  const tokenize = async (card = aCard()) => String((await vault.call(MERCHANT, 'POST', '/tokens', { card })).body.id);
  const tokenOf = (issuer: string, claims: { merchantId?: string; scopes?: string[]; audience?: string } = {}) =>
    vault
      .signerFor(issuer)
      .sign(claims.audience ?? 'vault', { merchantId: claims.merchantId ?? MERCHANT.merchantId, scopes: claims.scopes ?? ['tokens:detokenize'], mode: 'test' });
  const request = (tokenId: string, overrides: Partial<DetokenizeRequest> = {}): DetokenizeRequest => ({
    bearerToken: tokenOf('forwarder'),
    tokenId,
    purpose: 'forward',
    requestId: 'req-internal-api-1',
    ...overrides,
  });
  const auditOf = async (tokenId: string) =>
    (await vault.call(ADMIN, 'GET', `/admin/detokenize-audit?token_id=${tokenId}`)).body.data?.map((a) => ({
      caller: a.caller,
      outcome: a.outcome,
      request_id: a.request_id,
    }));

  it('when the forwarder calls with its tokens:detokenize token, then it gets the card data in the shape the HTTP route answers, and the grant is audited with its request id', async () => {
    const id = await tokenize();

    const card = await api().detokenize(request(id));

    const overHttp = await vault.call(
      { issuer: 'forwarder', merchantId: MERCHANT.merchantId, scopes: ['tokens:detokenize'], mode: 'test' },
      'POST',
      `/internal/tokens/${id}/detokenize`,
      { purpose: 'forward' },
    );
    expect(card).toEqual({
      token_id: id,
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
      cvc_status: 'available',
      cardholder_name: 'Ada Lovelace',
      scheme: 'VISA',
    });
    expect(overHttp.body).toEqual(card);
    expect((await auditOf(id))?.find((a) => a.request_id === 'req-internal-api-1')).toEqual({
      caller: 'forwarder',
      outcome: 'granted',
      request_id: 'req-internal-api-1',
    });
  });

  it('when another service signs the call, even with tokens:detokenize, then it is refused with 403 insufficient_scope and the attempt is audited under its name', async () => {
    const id = await tokenize();

    await expect(api().detokenize(request(id, { bearerToken: tokenOf('gateway') }))).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });

    expect(await auditOf(id)).toEqual([{ caller: 'gateway', outcome: 'insufficient_scope', request_id: 'req-internal-api-1' }]);
  });

  it('when the forwarder calls without tokens:detokenize, then it is refused with 403 insufficient_scope and the attempt is audited', async () => {
    const id = await tokenize();

    await expect(api().detokenize(request(id, { bearerToken: tokenOf('forwarder', { scopes: ['merchant'] }) }))).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });

    expect(await auditOf(id)).toEqual([{ caller: 'forwarder', outcome: 'insufficient_scope', request_id: 'req-internal-api-1' }]);
  });

  it('when the token is addressed to another service or was tampered with, then it is refused with 401 before anything is read, and, as on the HTTP route, nothing is audited', async () => {
    const id = await tokenize();
    const forAnotherAudience = tokenOf('forwarder', { audience: 'payment-orchestrator' });
    const [header, payload, signature] = tokenOf('forwarder').split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, merchant_id: OTHER_MERCHANT.merchantId })).toString('base64url'), signature].join('.');

    for (const bearerToken of [forAnotherAudience, tampered, 'not-a-jwt']) {
      await expect(api().detokenize(request(id, { bearerToken }))).rejects.toMatchObject({ status: 401, code: 'invalid_internal_token' });
    }
    const overHttp = await fetch(`${vault.baseUrl}/internal/tokens/${id}/detokenize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tampered}`, 'content-type': 'application/json' },
      body: JSON.stringify({ purpose: 'forward' }),
    });

    expect(overHttp.status).toBe(401);
    expect(await auditOf(id)).toEqual([]);
  });

  it('when the token id belongs to another merchant or does not exist, then 404 token_not_found, audited as such', async () => {
    const id = await tokenize();
    const unknown = randomUUID();

    await expect(api().detokenize(request(id, { bearerToken: tokenOf('forwarder', { merchantId: OTHER_MERCHANT.merchantId }) }))).rejects.toMatchObject({
      status: 404,
      code: 'token_not_found',
    });
    await expect(api().detokenize(request(unknown))).rejects.toMatchObject({ status: 404, code: 'token_not_found' });

    expect(await auditOf(id)).toEqual([{ caller: 'forwarder', outcome: 'token_not_found', request_id: 'req-internal-api-1' }]);
    expect(await auditOf(unknown)).toEqual([{ caller: 'forwarder', outcome: 'token_not_found', request_id: 'req-internal-api-1' }]);
  });

  it('when the token was deleted, then 410 token_deleted', async () => {
    const id = await tokenize();
    await vault.call(MERCHANT, 'DELETE', `/tokens/${id}`);

    await expect(api().detokenize(request(id))).rejects.toMatchObject({ status: 410, code: 'token_deleted' });
  });

  it('when the token id is not a UUID or the purpose is blank or too long, then 422 and nothing is audited', async () => {
    const id = await tokenize();

    await expect(api().detokenize(request('../../admin'))).rejects.toMatchObject({ status: 422 });
    await expect(api().detokenize(request(id, { purpose: '   ' }))).rejects.toMatchObject({ status: 422, field: 'purpose' });
    await expect(api().detokenize(request(id, { purpose: 'x'.repeat(201) }))).rejects.toMatchObject({ status: 422, field: 'purpose' });

    expect(await auditOf(id)).toEqual([]);
  });

  it('when the request id is malformed, then the audit gets a fresh one, as X-Request-Id does over HTTP', async () => {
    const id = await tokenize();

    await api().detokenize(request(id, { requestId: 'bad id\nwith newline' }));

    const [entry] = (await auditOf(id)) ?? [];
    expect(entry?.request_id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(entry?.request_id).not.toContain('bad id');
  });
});
