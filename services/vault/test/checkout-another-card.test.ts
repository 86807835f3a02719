import { topics } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { aCard, captureTopics, MERCHANT, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession, publishAttemptFailed, publishPaymentStatus } from './checkout-helpers';

/**
 * Issue 36: the hosted page has no dead end. A card that failed (payment.attempt_failed) opens the session
 * again for another card; "Return to the shop" ends it (checkout.session.abandoned); the attempts stay
 * limited per session, the wait is said; a test session on loopback has the larger per-address budget.
 */
describe('the hosted page takes another card after a failed one', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault({
      env: { VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: '3', VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS: '4', VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS: '50' },
    });
  });
  afterAll(() => vault.stop());

  const status = async (sessionId: string) => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body;
  const submit = (sessionId: string, card = aCard(), address?: string) =>
    vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card }, address ? { 'x-forwarded-for': address } : {});
  const declined = { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002' };

  it('when the payment says the card failed, then the session is open again without the card, names the failed attempt, and the next card is attempt 2', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
    const { sessionId, paymentId } = await openSession(vault);
    expect((await submit(sessionId, aCard({ number: '4000000000000002' }))).status).toBe(201);
    await publishAttemptFailed(vault, paymentId, declined);
    await waitFor(async () => (await status(sessionId)).state === 'open');

    expect(await status(sessionId)).toMatchObject({
      state: 'open',
      payment_status: 'processing',
      attempts: 1,
      masked_account_number: null,
      last_failed_attempt: declined,
    });
    expect((await submit(sessionId)).status).toBe(201);
    const completions = await waitFor(() => {
      const mine = capture.events().filter((e) => (e.data as { session_id: string }).session_id === sessionId);
      return mine.length === 2 ? mine : null;
    });
    expect(completions.map((e) => (e.data as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(await status(sessionId)).toMatchObject({ state: 'completed', attempts: 2, masked_account_number: '424242******4242' });
    await capture.stop();
  });

  it('when a payment.attempt_failed of an earlier card arrives late, then the session deciding the next card stays completed', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    await submit(sessionId, aCard({ number: '4000000000000002' }));
    await publishAttemptFailed(vault, paymentId, declined);
    await waitFor(async () => (await status(sessionId)).state === 'open');
    await submit(sessionId);
    await publishAttemptFailed(vault, paymentId, declined);
    await publishPaymentStatus(vault, paymentId, 'captured');
    await waitFor(async () => (await status(sessionId)).payment_status === 'captured');
    expect(await status(sessionId)).toMatchObject({ state: 'completed', attempts: 2 });
  });

  it('when the consumer leaves after a failed card, then the session is abandoned, checkout.session.abandoned is published, and no card is taken any more', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
    const { sessionId, paymentId } = await openSession(vault);
    await submit(sessionId, aCard({ number: '4000000000000002' }));
    await publishAttemptFailed(vault, paymentId, declined);
    await waitFor(async () => (await status(sessionId)).state === 'open');

    const left = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/abandon`);
    expect(left).toMatchObject({ status: 200, body: { state: 'abandoned' } });
    const event = await waitFor(() =>
      capture.events().find((e) => e.type === 'checkout.session.abandoned' && (e.data as { session_id: string }).session_id === sessionId),
    );
    expect(event).toMatchObject({ merchant_id: MERCHANT.merchantId, data: { payment_id: paymentId } });
    const late = await submit(sessionId);
    expect([late.status, late.body.code]).toEqual([409, 'checkout_session_abandoned']);
    await capture.stop();
  });

  it('when a card is being decided, then the session cannot be abandoned (409 checkout_session_not_abandonable)', async () => {
    const { sessionId } = await openSession(vault);
    await submit(sessionId);
    const left = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/abandon`);
    expect([left.status, left.body.code]).toEqual([409, 'checkout_session_not_abandonable']);
  });

  it('when a session is over its attempts, then the answer says how long to wait, in Retry-After and in retry_after', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await submit(sessionId, aCard({ number: '4000000000000002' }))).status).toBe(201);
      await publishAttemptFailed(vault, paymentId, { ...declined, number: attempt });
      await waitFor(async () => (await status(sessionId)).state === 'open');
    }
    const refused = await submit(sessionId);
    expect(refused).toMatchObject({ status: 429, body: { code: 'too_many_attempts', retry_after: 600 } });
    expect(refused.headers.get('retry-after')).toBe('600');
    expect(refused.body.detail).toBe('Too many attempts; try again in 600 s.');
  });

  it('when many test sessions are paid from loopback (a laptop), then the per-address limit is the loopback one; from any other address, or a live session, the ordinary one', async () => {
    const fromLoopback = [];
    for (let i = 0; i < 6; i++) fromLoopback.push((await submit((await openSession(vault)).sessionId, aCard(), '127.0.0.1')).status);
    expect(fromLoopback).toEqual([201, 201, 201, 201, 201, 201]);

    const fromElsewhere = [];
    for (let i = 0; i < 5; i++) fromElsewhere.push((await submit((await openSession(vault)).sessionId, aCard(), '198.51.100.7')).status);
    expect(fromElsewhere).toEqual([201, 201, 201, 201, 429]);

    const live = [];
    for (let i = 0; i < 5; i++) live.push((await submit((await openSession(vault, { mode: 'live' })).sessionId, aCard(), '::1')).status);
    expect(live).toEqual([201, 201, 201, 201, 429]);
  });

  it("when the shop set no display name, then the page shows the merchant's name the payment carried, and says the session is a test", async () => {
    const { sessionId } = await openSession(vault, { merchantName: 'Bootstrap merchant' });
    expect(await status(sessionId)).toMatchObject({
      livemode: false,
      attempts: 0,
      last_failed_attempt: null,
      merchant: { display_name: 'Bootstrap merchant' },
    });
    const saved = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { display_name: 'Acme Coffee Roasters' });
    expect(saved.status).toBe(200);
    expect((await status(sessionId)).merchant).toMatchObject({ display_name: 'Acme Coffee Roasters' });
    await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { display_name: null });
  });
});
