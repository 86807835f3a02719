import { waitFor } from '@vaultline/core';
import { topics, validateAgainstOpenApi } from '@vaultline/contracts';
import { StoreTokenRepository } from '../src/data/token.repository';
import { aCard, captureTopics, FORWARDER, MERCHANT, MERCHANT_LIVE, OTHER_MERCHANT, MERCHANT_SCOPE, startVault, type VaultHarness } from './vault-harness';

describe('vault merchant token API', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  it('when a merchant with card-data access posts a card, then it answers 201 with a masked token and never the number', async () => {
    const answer = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard(), business_key: 'cus_1' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      business_key: 'cus_1',
      cardholder_name: 'Ada Lovelace',
      expiry_month: 12,
      expiry_year: 2034,
      masked_account_number: '424242******4242',
      scheme: 'VISA',
    });
    expect(answer.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(answer.body.fingerprint).toMatch(/^fp_/);
    expect(JSON.stringify(answer.body)).not.toContain('4242424242424242');
    expect(validateAgainstOpenApi('POST', '/tokens', 201, answer.body)).toEqual({ valid: true, errors: [] });
    const list = await vault.call(MERCHANT, 'GET', '/tokens?business_key=cus_1');
    expect(validateAgainstOpenApi('GET', '/tokens', 200, list.body)).toEqual({ valid: true, errors: [] });
  });

  it('when the API key lacks card-data access, then POST /tokens answers 403 card_data_access_not_enabled', async () => {
    const answer = await vault.call({ merchantId: 'merchant_a', scopes: ['merchant'] }, 'POST', '/tokens', { card: aCard() });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('card_data_access_not_enabled');
  });

  it.each([
    ['a number failing the check digit', { number: '4242424242424241' }, 'card.number', 'invalid_card_number'],
    ['a Visa number of 15 digits', { number: '424242424242428' }, 'card.number', 'invalid_card_number'],
    ['letters in the number', { number: '4242-4242-abcd-4242' }, 'card.number', 'invalid_card_number'],
    ['month 13', { exp_month: '13' }, 'card.exp_month', 'invalid_expiry_month'],
    ['a three-digit year', { exp_year: '203' }, 'card.exp_year', 'invalid_expiry_year'],
    ['an expired card', { exp_month: '1', exp_year: '2020' }, 'card.exp_year', 'card_expired'],
    ['a 4-digit code on a Visa', { cvc: '1234' }, 'card.cvc', 'invalid_security_code'],
    ['a 3-digit code on an Amex', { number: '378282246310005', cvc: '123' }, 'card.cvc', 'invalid_security_code'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'card.name', 'invalid_cardholder_name'],
  ])('when the card has %s, then it answers 422 naming the field without echoing the number', async (_label, override, field, code) => {
    const card = aCard(override);
    const answer = await vault.call(MERCHANT, 'POST', '/tokens', { card });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ field, code });
    expect(JSON.stringify(answer.body)).not.toContain(String(card.number).replace(/\D/g, ''));
  });

  it('when the year has two digits and the number has spaces, then they are normalised; an Amex needs 4 digits of code', async () => {
    const answer = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: '3782 822463 10005', exp_month: 3, exp_year: '31', cvc: '1234' }) });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ expiry_month: 3, expiry_year: 2031, scheme: 'AMEX', masked_account_number: '378282*****0005' });
  });

  it('when the same card is tokenized twice, then two tokens share one fingerprint; another merchant gets another fingerprint', async () => {
    const first = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: '5555555555554444' }) });
    const second = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: '5555 5555 5555 4444' }) });
    const other = await vault.call(OTHER_MERCHANT, 'POST', '/tokens', { card: aCard({ number: '5555555555554444' }) });
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.fingerprint).toBe(first.body.fingerprint);
    expect(other.body.fingerprint).not.toBe(first.body.fingerprint);
    const byFingerprint = await vault.call(MERCHANT, 'GET', `/tokens?fingerprint=${String(first.body.fingerprint)}&limit=10`);
    expect(byFingerprint.body.data?.map((t) => t.id).sort()).toEqual([first.body.id, second.body.id].sort());
  });

  it('when another merchant asks for a token id, then it answers 404 token_not_found', async () => {
    const created = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard() });
    const answer = await vault.call(OTHER_MERCHANT, 'GET', `/tokens/${String(created.body.id)}`);
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('token_not_found');
    expect((await vault.call(OTHER_MERCHANT, 'DELETE', `/tokens/${String(created.body.id)}`)).status).toBe(404);
  });

  it('when a key of the other mode reads, lists, deletes or detokenizes a token, then it answers 404 and the token is untouched', async () => {
    const test = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard(), business_key: 'both-worlds' });
    const live = await vault.call(MERCHANT_LIVE, 'POST', '/tokens', { card: aCard(), business_key: 'both-worlds' });
    expect(test.body.livemode).toBe(false);
    expect(live.body.livemode).toBe(true);

    for (const [caller, other] of [
      [MERCHANT_LIVE, test],
      [MERCHANT, live],
    ] as const) {
      const id = String(other.body.id);
      expect((await vault.call(caller, 'GET', `/tokens/${id}`)).status).toBe(404);
      expect((await vault.call(caller, 'DELETE', `/tokens/${id}`)).status).toBe(404);
      const forwarder = FORWARDER(MERCHANT.merchantId, caller.mode);
      expect((await vault.call(forwarder, 'POST', `/internal/tokens/${id}/detokenize`, { purpose: 't' })).body.code).toBe('token_not_found');
      const listed = await vault.call(caller, 'GET', '/tokens?business_key=both-worlds');
      expect((listed.body.data as Array<{ id: string }>).map((token) => token.id)).toEqual([String((caller === MERCHANT ? test : live).body.id)]);
    }
    expect((await vault.call(MERCHANT, 'GET', `/tokens/${String(test.body.id)}`)).body.livemode).toBe(false);
    expect((await vault.call(MERCHANT_LIVE, 'GET', `/tokens/${String(live.body.id)}`)).body.livemode).toBe(true);
  });

  it('when a token is deleted, then token.deleted is published and later reads answer 410 token_deleted', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.tokens]);
    const created = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard() });
    const id = String(created.body.id);
    expect((await vault.call(MERCHANT, 'DELETE', `/tokens/${id}`)).body).toEqual({ id, deleted: true });
    const read = await vault.call(MERCHANT, 'GET', `/tokens/${id}`);
    expect(read.status).toBe(410);
    expect(read.body.code).toBe('token_deleted');
    const record = await new StoreTokenRepository(vault.runtime.store).get(MERCHANT_SCOPE, id);
    expect(record).toMatchObject({ status: 'deleted', pan_ciphertext: null, name_ciphertext: null, wrapped_key: null });
    await waitFor(() => capture.events().some((e) => e.type === 'token.deleted' && (e.data as { token_id: string }).token_id === id));
    await capture.stop();
  });

  it('when tokens are listed by business_key, then pages follow the cursor and other keys and merchants are left out', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(String((await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard(), business_key: 'pm_list' })).body.id));
    await vault.call(OTHER_MERCHANT, 'POST', '/tokens', { card: aCard(), business_key: 'pm_list' });
    const first = await vault.call(MERCHANT, 'GET', '/tokens?business_key=pm_list&limit=2&order=asc');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const second = await vault.call(MERCHANT, 'GET', `/tokens?business_key=pm_list&limit=2&order=asc&starting_after=${String(first.body.next_cursor)}`);
    expect([...(first.body.data ?? []), ...(second.body.data ?? [])].map((t) => t.id)).toEqual(ids);
    expect(second.body.has_more).toBe(false);
  });
});
