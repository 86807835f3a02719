import { waitFor } from '@vaultline/core';
import { topics } from '@vaultline/contracts';
import { ADMIN, aCard, captureTopics, FORWARDER, MERCHANT, OTHER_MERCHANT, startVault, type VaultHarness } from './vault-harness';

describe('internal detokenization (forwarder only)', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  const tokenize = async (card = aCard()) => String((await vault.call(MERCHANT, 'POST', '/tokens', { card })).body.id);
  const detokenize = (id: string, caller = FORWARDER()) => vault.call(caller, 'POST', `/internal/tokens/${id}/detokenize`, { purpose: 'forward to acquirer' });

  it('when the forwarder asks within 15 minutes, then it gets the card data with the security code available', async () => {
    const id = await tokenize();
    const answer = await detokenize(id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      token_id: id,
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
      cvc_status: 'available',
      cardholder_name: 'Ada Lovelace',
      scheme: 'VISA',
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('when the security code is older than 15 minutes, then the card data comes without it and cvc_status says expired', async () => {
    const id = await tokenize();
    vault.clock.advance(15 * 60_000 + 1);
    const answer = await detokenize(id);
    expect(answer.body).toMatchObject({ number: '4242424242424242', cvc: null, cvc_status: 'expired' });
  });

  it('when no security code was given, then cvc_status is not_collected', async () => {
    const id = await tokenize(aCard({ cvc: undefined }));
    expect((await detokenize(id)).body).toMatchObject({ cvc: null, cvc_status: 'not_collected' });
  });

  it('when the caller is not the forwarder or lacks tokens:detokenize, then it answers 403 insufficient_scope and the attempt is audited', async () => {
    const id = await tokenize();
    const asGateway = await detokenize(id, { merchantId: MERCHANT.merchantId, scopes: ['tokens:detokenize', 'merchant'] });
    const withoutScope = await detokenize(id, { issuer: 'forwarder', merchantId: MERCHANT.merchantId, scopes: ['merchant'] });
    expect([asGateway.status, asGateway.body.code, withoutScope.status, withoutScope.body.code]).toEqual([
      403,
      'insufficient_scope',
      403,
      'insufficient_scope',
    ]);
    const audit = await vault.call(ADMIN, 'GET', `/admin/detokenize-audit?token_id=${id}`);
    expect(audit.body.data?.map((a) => [a.caller, a.outcome])).toEqual([
      ['forwarder', 'insufficient_scope'],
      ['gateway', 'insufficient_scope'],
    ]);
  });

  it('when the token belongs to another merchant, then 404 token_not_found; a deleted token answers 410 token_deleted', async () => {
    const id = await tokenize();
    expect((await detokenize(id, FORWARDER(OTHER_MERCHANT.merchantId))).body.code).toBe('token_not_found');
    await vault.call(MERCHANT, 'DELETE', `/tokens/${id}`);
    const deleted = await detokenize(id);
    expect([deleted.status, deleted.body.code]).toEqual([410, 'token_deleted']);
  });

  it('when card data is released, then the audit lists caller, token, purpose, time and outcome, and token.detokenized carries ids only', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.detokenizations]);
    const id = await tokenize();
    await detokenize(id);
    const audit = await vault.call(ADMIN, 'GET', `/admin/detokenize-audit?token_id=${id}&caller=forwarder`);
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        token_id: id,
        merchant_id: MERCHANT.merchantId,
        caller: 'forwarder',
        purpose: 'forward to acquirer',
        outcome: 'granted',
        security_code_status: 'available',
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toMatch(/4242424242424242|"123"/);
    const event = await waitFor(() => capture.events().find((e) => (e.data as { token_id: string }).token_id === id));
    expect(Object.keys(event.data as object).sort()).toEqual(['audit_id', 'caller', 'purpose', 'token_id']);
    await capture.stop();
  });

  it('when a merchant key calls the admin audit, then it answers 403', async () => {
    expect((await vault.call(MERCHANT, 'GET', '/admin/detokenize-audit')).status).toBe(403);
  });
});
