import { topics } from '@vaultline/contracts';
import { newId, waitFor } from '@vaultline/core';
import { aCard, captureTopics, FORWARDER, MERCHANT, OTHER_MERCHANT, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession } from './checkout-helpers';

describe('checkout sessions with a stored card (earlier payment interface)', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  async function storedToken(caller = MERCHANT): Promise<string> {
    const created = await vault.call(caller, 'POST', '/tokens', { card: aCard() });
    expect(created.status).toBe(201);
    return created.body.id as string;
  }
  const offer = (tokenId: string, securityCodeRequired = false) => ({
    token_id: tokenId,
    masked_account_number: '424242******4242',
    scheme: 'VISA',
    expiry_month: 12,
    expiry_year: 2034,
    cardholder_name: 'Ada Lovelace',
    security_code_required: securityCodeRequired,
  });

  it('when the session offers a stored card, then its status shows the card masked without the token, and confirming it completes the session with the stored token and the confirmation time', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
    const tokenId = await storedToken();
    const { sessionId, paymentId } = await openSession(vault, { storedCard: offer(tokenId) });
    const status = await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`);
    expect(status.body.stored_card).toEqual({
      masked_account_number: '424242******4242',
      scheme: 'VISA',
      expiry_month: 12,
      expiry_year: 2034,
      cardholder_name: 'Ada Lovelace',
      security_code_required: false,
    });
    expect(JSON.stringify(status.body)).not.toContain(tokenId);
    const confirmed = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, {});
    expect(confirmed).toMatchObject({ status: 201, body: { state: 'completed', masked_account_number: '424242******4242' } });
    const event = await waitFor(() => capture.events().find((e) => (e.data as { session_id: string }).session_id === sessionId));
    expect(event).toMatchObject({
      merchant_id: MERCHANT.merchantId,
      data: { payment_id: paymentId, token_id: tokenId, card: { masked_account_number: '424242******4242', submitted_at: vault.clock.now().toISOString() } },
    });
    expect((await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, {})).body.code).toBe('checkout_session_already_used');
    await capture.stop();
  });

  it("when the stored token is another merchant's or the session offers no stored card, then confirming answers 409 stored_card_not_confirmable and the session stays open", async () => {
    const foreign = await storedToken(OTHER_MERCHANT);
    const { sessionId } = await openSession(vault, { storedCard: offer(foreign) });
    expect(await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, {})).toMatchObject({
      status: 409,
      body: { code: 'stored_card_not_confirmable' },
    });
    const plain = await openSession(vault);
    expect(await vault.call(PUBLIC, 'POST', `/sessions/${plain.sessionId}/stored-card`, {})).toMatchObject({
      status: 409,
      body: { code: 'stored_card_not_confirmable' },
    });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state).toBe('open');
  });

  it('when the flow needs the security code, then a missing or malformed one answers 422 invalid_security_code, and the entered one is kept for the token (15 minutes) as with a new card', async () => {
    const tokenId = await storedToken();
    vault.clock.advance(16 * 60_000);
    expect((await vault.call(FORWARDER(), 'POST', `/internal/tokens/${tokenId}/detokenize`, { purpose: 'authorize' })).body.cvc_status).toBe('expired');
    const { sessionId } = await openSession(vault, { storedCard: offer(tokenId, true) });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.stored_card).toMatchObject({ security_code_required: true });
    expect(await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, {})).toMatchObject({
      status: 422,
      body: { code: 'invalid_security_code', field: 'security_code' },
    });
    expect(await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, { security_code: '12a' })).toMatchObject({
      status: 422,
      body: { code: 'invalid_security_code' },
    });
    const confirmed = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, { security_code: '737' });
    expect(confirmed).toMatchObject({ status: 201, body: { state: 'completed' } });
    expect(JSON.stringify(confirmed.body)).not.toContain('737');
    const card = await vault.call(FORWARDER(), 'POST', `/internal/tokens/${tokenId}/detokenize`, { purpose: 'authorize' });
    expect(card.body).toMatchObject({ cvc: '737', cvc_status: 'available' });
  });

  it('when a session that offers a stored card gets a newly entered card, then it answers 409 stored_card_session, no token is made and the session stays open for the stored card', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.tokens, topics.checkoutSessionsCompleted]);
    const tokenId = await storedToken();
    const { sessionId } = await openSession(vault, { storedCard: offer(tokenId) });
    const entered = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    expect(entered).toMatchObject({ status: 409, body: { code: 'stored_card_session' } });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state).toBe('open');
    expect(await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/stored-card`, {})).toMatchObject({ status: 201, body: { state: 'completed' } });
    const completed = await waitFor(() => capture.events().find((e) => (e.data as { session_id?: string }).session_id === sessionId));
    expect((completed.data as { token_id: string }).token_id).toBe(tokenId);
    expect(capture.events().filter((e) => (e.data as { source?: string }).source === 'checkout')).toEqual([]);
    await capture.stop();
  });

  it('when the session id is unknown, then confirming answers 404', async () => {
    expect((await vault.call(PUBLIC, 'POST', `/sessions/${newId()}/stored-card`, {})).status).toBe(404);
  });
});
