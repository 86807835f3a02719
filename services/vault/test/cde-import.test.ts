import { waitFor } from '@vaultline/core';
import { topics } from '@vaultline/contracts';
import { FORWARDER, MERCHANT, OTHER_MERCHANT, startVault, type VaultHarness } from './vault-harness';

const platformBody = (businessKey: string, card: Record<string, string>, metadata: Record<string, string> = {}) => ({
  metadata: { business_key: businessKey, ...metadata },
  card: { number: '4000 0566 5566 5556', exp_month: '04', exp_year: '33', cvc: '737', name: 'Grace Hopper', ...card },
});

describe('POST /cde-import (a third-party platform forwarding card data)', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  it('when the platform sends string fields with a two-digit year, then a token with business_key = metadata.business_key is created', async () => {
    const answer = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_1A', {}));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      business_key: 'pm_1A',
      cardholder_name: 'Grace Hopper',
      expiry_month: 4,
      expiry_year: 2033,
      masked_account_number: '400005******5556',
      scheme: 'VISA',
    });
  });

  it('when the expiry arrives as "MM/YY" in exp_month with an empty exp_year, then it is accepted', async () => {
    const answer = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_expiry', { exp_month: '07/35', exp_year: '' }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ expiry_month: 7, expiry_year: 2035 });
  });

  it('when the same business_key is imported again for the same merchant, then the token is updated in place (200, updated: true)', async () => {
    const capture = await captureTokenEvents(vault);
    const first = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_again', {}));
    const second = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_again', { number: '5555555555554444', exp_year: '2036' }));
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body).toMatchObject({ scheme: 'MASTERCARD', expiry_year: 2036, masked_account_number: '555555******4444' });
    const list = await vault.call(MERCHANT, 'GET', '/tokens?business_key=pm_again');
    expect(list.body.data).toHaveLength(1);
    const card = await vault.call(FORWARDER(), 'POST', `/internal/tokens/${String(first.body.id)}/detokenize`, { purpose: 'test' });
    expect(card.body.number).toBe('5555555555554444');
    await waitFor(() => capture.events().filter((e) => (e.data as { token_id: string }).token_id === first.body.id).length === 2);
    const mine = capture.events().filter((e) => (e.data as { token_id: string }).token_id === first.body.id);
    expect(mine.map((e) => (e.data as { updated: boolean }).updated)).toEqual([false, true]);
    await capture.stop();
  });

  it('when the platform has no security code left to send, then the card is imported without one and token.created says so', async () => {
    const capture = await captureTokenEvents(vault);
    const withCode = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_code', {}));
    const without = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_no_code', { cvc: '' }));

    expect(without.status).toBe(201);
    expect(without.body.security_code_expires_at).toBeNull();
    expect(withCode.body.security_code_expires_at).not.toBeNull();
    const stored = (id: unknown) =>
      (capture.events().find((e) => (e.data as { token_id: string }).token_id === id)?.data as { security_code_stored?: boolean } | undefined)
        ?.security_code_stored;
    await waitFor(() => stored(without.body.id) !== undefined && stored(withCode.body.id) !== undefined);
    expect([stored(withCode.body.id), stored(without.body.id)]).toEqual([true, false]);
    await capture.stop();
  });

  it('when another merchant imports the same business_key, then it gets its own token', async () => {
    const mine = await vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_shared', {}));
    const theirs = await vault.call(OTHER_MERCHANT, 'POST', '/cde-import', platformBody('pm_shared', {}));
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('when an import job key sends a correlation id (header or metadata), then token.created carries it', async () => {
    const capture = await captureTokenEvents(vault);
    const importKey = { merchantId: MERCHANT.merchantId, scopes: ['cde_import'], mode: 'test' as const };
    await vault.call(importKey, 'POST', '/cde-import', platformBody('pm_h', {}), { 'x-correlation-id': 'job_42' });
    await vault.call(importKey, 'POST', '/cde-import', platformBody('pm_m', {}, { correlation_id: 'job_43' }));
    const ofJob = () => capture.events().filter((e) => ['pm_h', 'pm_m'].includes((e.data as { business_key: string }).business_key));
    await waitFor(() => ofJob().length >= 2);
    expect(ofJob().map((e) => e.data)).toEqual([
      expect.objectContaining({ business_key: 'pm_h', correlation_id: 'job_42', source: 'cde_import', updated: false }),
      expect.objectContaining({ business_key: 'pm_m', correlation_id: 'job_43' }),
    ]);
    await capture.stop();
  });

  it('when an ordinary merchant key without card-data access imports, then it answers 403 card_data_access_not_enabled as POST /tokens does', async () => {
    const withoutCardData = { merchantId: MERCHANT.merchantId, scopes: ['merchant'] };
    const answer = await vault.call(withoutCardData, 'POST', '/cde-import', platformBody('pm_no_access', {}));
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 403, code: 'card_data_access_not_enabled' });
    const tokens = await vault.call(MERCHANT, 'GET', '/tokens?business_key=pm_no_access');
    expect(tokens.body.data).toEqual([]);
  });

  it('when an import job key (cde_import only) imports, then it is accepted without card_data', async () => {
    const importKey = { merchantId: MERCHANT.merchantId, scopes: ['cde_import'], mode: 'test' as const };
    const answer = await vault.call(importKey, 'POST', '/cde-import', platformBody('pm_job_key', {}));
    expect(answer.status).toBe(201);
  });

  it('when metadata.business_key is missing, then it answers 422 naming metadata.business_key', async () => {
    const answer = await vault.call(MERCHANT, 'POST', '/cde-import', { metadata: {}, card: platformBody('x', {}).card });
    expect(answer.status).toBe(422);
    expect(answer.body.field).toBe('metadata.business_key');
  });

  it('when two imports of one new business_key race, then exactly one token exists afterwards', async () => {
    const answers = await Promise.all([0, 1, 2].map(() => vault.call(MERCHANT, 'POST', '/cde-import', platformBody('pm_race', {}))));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
  });
});

/** A new consumer group reads the topic from its start: filter by what the test made. */
async function captureTokenEvents(vault: VaultHarness) {
  const values: string[] = [];
  const subscription = await vault.runtime.bus.subscribe({
    topics: [topics.tokens],
    group: `t-${Math.random()}`,
    handler: async (d) => void values.push(d.value),
  });
  return {
    events: () => values.map((v) => JSON.parse(v) as { type: string; data: unknown }).filter((e) => e.type === 'token.created'),
    stop: () => subscription.stop(),
  };
}
