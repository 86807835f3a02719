import { eventMessage } from '@vaultline/bus';
import { checkoutSessionOpenedV1, topics } from '@vaultline/contracts';
import { newId, waitFor } from '@vaultline/core';
import { MemoryDocumentStore, SYSTEM_SCOPE, type StoredDocument } from '@vaultline/store';
import { VAULT_CONSUMER_GROUP } from '../src/messaging/checkout-events.consumer';
import { aCard, captureTopics, FORWARDER, MERCHANT, MERCHANT_SCOPE, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession, publishPaymentStatus } from './checkout-helpers';

describe('checkout sessions (card entry in the browser)', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault({ env: { VAULT_CHECKOUT_ATTEMPTS_PER_SESSION: '3' } });
  });
  afterAll(() => vault.stop());

  it('when the consumer submits a card to an open session, then the merchant gets a token and checkout.session.completed is published', async () => {
    const capture = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
    const { sessionId, paymentId } = await openSession(vault);
    const answer = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      session_id: sessionId,
      state: 'completed',
      payment_status: 'processing',
      masked_account_number: '424242******4242',
      scheme: 'VISA',
    });
    const event = await waitFor(() => capture.events().find((e) => (e.data as { session_id: string }).session_id === sessionId));
    const { token_id } = event.data as { token_id: string; payment_id: string };
    expect(event).toMatchObject({
      merchant_id: MERCHANT.merchantId,
      data: { payment_id: paymentId, card: { masked_account_number: '424242******4242', scheme: 'VISA', expiry_month: expect.any(Number) } },
    });
    expect(JSON.stringify(event)).not.toContain('4242424242424242');
    const card = await vault.call(FORWARDER(), 'POST', `/internal/tokens/${token_id}/detokenize`, { purpose: 'authorize' });
    expect(card.body).toMatchObject({ number: '4242424242424242', cvc: '123', cvc_status: 'available' });
    await capture.stop();
  });

  it('when a card was already submitted, then a second submission answers 409 checkout_session_already_used', async () => {
    const { sessionId } = await openSession(vault);
    await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    const again = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    expect([again.status, again.body.code]).toEqual([409, 'checkout_session_already_used']);
  });

  it('when the session has expired, then the submission answers 410 checkout_session_expired and the status says expired', async () => {
    const { sessionId } = await openSession(vault, { expiresInMs: 1_000 });
    vault.clock.advance(2_000);
    const answer = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    expect([answer.status, answer.body.code]).toEqual([410, 'checkout_session_expired']);
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state).toBe('expired');
  });

  it('when the merchant canceled the payment before a card was entered, then the session is closed: a card submitted afterwards answers 409 checkout_session_canceled and the status says canceled', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    await publishPaymentStatus(vault, paymentId, 'canceled');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state === 'canceled');
    const answer = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    expect([answer.status, answer.body.code]).toEqual([409, 'checkout_session_canceled']);
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body).toMatchObject({
      state: 'canceled',
      payment_status: 'canceled',
      failure_reason: null,
    });
  });

  it('when an authorized payment whose card was entered is canceled, then the status shows canceled', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    await publishPaymentStatus(vault, paymentId, 'authorized');
    await publishPaymentStatus(vault, paymentId, 'canceled');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.payment_status === 'canceled');
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body).toMatchObject({ state: 'completed', payment_status: 'canceled' });
  });

  it('when the session id is unknown, then it answers 404 checkout_session_not_found', async () => {
    const answer = await vault.call(PUBLIC, 'POST', `/sessions/${newId()}/card`, { card: aCard() });
    expect([answer.status, answer.body.code]).toEqual([404, 'checkout_session_not_found']);
  });

  it('when the status is read before the session has arrived, then the read waits for checkout.session.opened and answers 200', async () => {
    const sessionId = newId();
    const read = vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await vault.runtime.bus.publish([
      eventMessage(checkoutSessionOpenedV1, {
        scope: MERCHANT_SCOPE,
        data: {
          session_id: sessionId,
          payment_id: newId(),
          amount: 1999,
          currency: 'EUR',
          expires_at: new Date(vault.clock.now().getTime() + 60_000).toISOString(),
          return_url: null,
        },
      }),
    ]);
    const answer = await read;
    expect([answer.status, answer.body.session_id, answer.body.state]).toEqual([200, sessionId, 'open']);
  });

  it('when the status of a session that never arrives is read, then it answers 404 checkout_session_not_found after a bounded wait', async () => {
    const started = Date.now();
    const answer = await vault.call(PUBLIC, 'GET', `/sessions/${newId()}/status`);
    expect([answer.status, answer.body.code]).toEqual([404, 'checkout_session_not_found']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when one session gets too many attempts, then it answers 429 too_many_attempts', async () => {
    const { sessionId } = await openSession(vault);
    const bad = { card: aCard({ number: '4242424242424241' }) };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, bad)).status);
    expect(statuses).toEqual([422, 422, 422, 429]);
  });

  it('when payment events arrive, then the status endpoint shows the payment progress and the return URL', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });
    await publishPaymentStatus(vault, paymentId, 'captured');
    const status = await waitFor(async () => {
      const answer = await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`);
      return answer.body.payment_status === 'captured' ? answer.body : null;
    });
    expect(status).toMatchObject({ state: 'completed', amount: 1999, currency: 'EUR', return_url: 'https://shop.example/return' });
  });

  it('when payment.processing arrives for a session that is already processing, then the session is not rewritten (a card submitted meanwhile would lose the race with it)', async () => {
    const { sessionId, paymentId } = await openSession(vault);
    const stored = async () =>
      (await vault.runtime.store.collection<{ id: string; merchant_id: string; version: number }>('checkout_sessions').get(MERCHANT_SCOPE, sessionId))!;
    const before = (await stored()).version;
    // One payment's events keep their order: once authorized is seen, processing was handled before it.
    await publishPaymentStatus(vault, paymentId, 'processing');
    await publishPaymentStatus(vault, paymentId, 'authorized');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.payment_status === 'authorized');
    expect((await stored()).version).toBe(before + 1);
  });

  it('when a late or redelivered payment event names an earlier state, then the page keeps the later one (failed and captured are final)', async () => {
    const failed = await openSession(vault);
    await publishPaymentStatus(vault, failed.paymentId, 'failed', 'card_declined');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${failed.sessionId}/status`)).body.payment_status === 'failed');
    const captured = await openSession(vault);
    await publishPaymentStatus(vault, captured.paymentId, 'captured');
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${captured.sessionId}/status`)).body.payment_status === 'captured');

    await publishPaymentStatus(vault, failed.paymentId, 'processing');
    await publishPaymentStatus(vault, captured.paymentId, 'authorized');
    await publishPaymentStatus(vault, captured.paymentId, 'failed');
    // Nothing visible changes when they are ignored: wait until the vault's consumer has read them all.
    await waitFor(async () =>
      (await vault.runtime.bus.consumerLag([{ group: VAULT_CONSUMER_GROUP, topics: [topics.payments] }])).every((entry) => entry.lag === 0),
    );

    expect((await vault.call(PUBLIC, 'GET', `/sessions/${failed.sessionId}/status`)).body).toMatchObject({
      payment_status: 'failed',
      failure_reason: 'card_declined',
    });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${captured.sessionId}/status`)).body).toMatchObject({
      payment_status: 'captured',
      failure_reason: null,
    });
  });

  it('when the hosted page and the SDK are requested, then they are served with a restrictive content policy', async () => {
    const { sessionId } = await openSession(vault);
    const page = await fetchRaw(vault, `/checkout/${sessionId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('<label for="number" data-text="cardNumber">Card number</label>');
    const sdk = await fetchRaw(vault, '/sdk/v1/checkout.js');
    expect(sdk.text).toContain('Checkout = { mount');
  });

  it('when the hosted page loads, then it names its own favicon under /checkout/assets and that answers an SVG image (no request for /favicon.ico)', async () => {
    const { sessionId } = await openSession(vault);
    const page = await fetchRaw(vault, `/checkout/${sessionId}`);
    expect(page.text).toContain('<link rel="icon" href="/checkout/assets/favicon.svg" type="image/svg+xml">');
    const icon = await fetchRaw(vault, '/checkout/assets/favicon.svg');
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(icon.text).toMatch(/^<svg /);
  });
});

describe('who may frame the hosted page and hear from it (allowed origins of the session)', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  const frameAncestorsOf = (policy: string | null) =>
    (policy ?? '')
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith('frame-ancestors'));

  it('when the session allows origins, then the page may be framed by exactly those origins and the status names them', async () => {
    const { sessionId } = await openSession(vault, { allowedOrigins: ['https://shop.example', 'http://localhost:3000'] });
    const page = await fetchRaw(vault, `/checkout/${sessionId}`);
    expect(frameAncestorsOf(page.headers.get('content-security-policy'))).toBe('frame-ancestors https://shop.example http://localhost:3000');
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.allowed_origins).toEqual(['https://shop.example', 'http://localhost:3000']);
  });

  it('when the session allows no origin, then no page may frame it', async () => {
    const { sessionId } = await openSession(vault);
    const page = await fetchRaw(vault, `/checkout/${sessionId}`);
    expect(frameAncestorsOf(page.headers.get('content-security-policy'))).toBe("frame-ancestors 'none'");
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.allowed_origins).toEqual([]);
  });

  it('when the session is not known (yet), then no page may frame it', async () => {
    const page = await fetchRaw(vault, `/checkout/${newId()}`);
    expect(page.status).toBe(200);
    expect(frameAncestorsOf(page.headers.get('content-security-policy'))).toBe("frame-ancestors 'none'");
  });

  it('when the framed page is asked for before its session reached the vault, then the page waits for the session and names its origins', async () => {
    const sessionId = newId();
    const page = fetchRaw(vault, `/checkout/${sessionId}?embedded=1`, { 'sec-fetch-dest': 'iframe' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await vault.runtime.bus.publish([
      eventMessage(checkoutSessionOpenedV1, {
        scope: MERCHANT_SCOPE,
        data: {
          session_id: sessionId,
          payment_id: newId(),
          amount: 1999,
          currency: 'EUR',
          expires_at: new Date(vault.clock.now().getTime() + 60_000).toISOString(),
          return_url: null,
          allowed_origins: ['https://shop.example'],
        },
      }),
    ]);
    expect(frameAncestorsOf((await page).headers.get('content-security-policy'))).toBe('frame-ancestors https://shop.example');
  });

  it('when two sessions allow different origins, then each page names only its own', async () => {
    const a = await openSession(vault, { allowedOrigins: ['https://a.example'] });
    const b = await openSession(vault, { allowedOrigins: ['https://b.example'] });
    expect(frameAncestorsOf((await fetchRaw(vault, `/checkout/${a.sessionId}`)).headers.get('content-security-policy'))).toBe(
      'frame-ancestors https://a.example',
    );
    expect(frameAncestorsOf((await fetchRaw(vault, `/checkout/${b.sessionId}`)).headers.get('content-security-policy'))).toBe(
      'frame-ancestors https://b.example',
    );
  });

  it('when an event names origins that are not web origins (a wildcard, a path, plain http, javascript:, a host that would split the policy), then the vault keeps none of them', async () => {
    const { sessionId } = await openSession(vault, {
      allowedOrigins: [
        '*',
        'https://shop.example/pay',
        'http://shop.example',
        'javascript:alert(1)',
        'https://a;b.example',
        'https://a,b.example',
        'https://ok.example',
      ],
    });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.allowed_origins).toEqual(['https://ok.example']);
    const policy = (await fetchRaw(vault, `/checkout/${sessionId}`)).headers.get('content-security-policy');
    expect(frameAncestorsOf(policy)).toBe('frame-ancestors https://ok.example');
  });

  it.each(['javascript:alert(document.domain)', 'data:text/html,hi', 'http://shop.example/return', 'ftp://shop.example/'])(
    'when an event carries the return URL %s (not https, not loopback http), then the vault neither stores nor offers it',
    async (returnUrl) => {
      const { sessionId } = await openSession(vault, { returnUrl });
      expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.return_url).toBeNull();
      const stored = await vault.runtime.store
        .collection<{ id: string; merchant_id: string; version: number; return_url: string | null }>('checkout_sessions')
        .get(MERCHANT_SCOPE, sessionId);
      expect(stored?.return_url).toBeNull();
    },
  );

  it('when an event carries an https or loopback http return URL, then the page is offered it', async () => {
    for (const returnUrl of ['https://shop.example/return?order=7', 'http://127.0.0.1:8080/return']) {
      const { sessionId } = await openSession(vault, { returnUrl });
      expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.return_url).toBe(returnUrl);
    }
  });
});

async function fetchRaw(vault: VaultHarness, path: string, headers: Record<string, string> = {}) {
  const token = vault.signerFor('gateway').sign('vault', { merchantId: '__public__', scopes: ['public'] });
  const response = await fetch(`${vault.baseUrl}${path}`, { headers: { ...headers, authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('whose a checkout session is', () => {
  it('when a session is opened, then it is stored under the merchant whose payment opened it', async () => {
    const vault = await startVault();
    try {
      const { sessionId } = await openSession(vault);

      const stored = await vault.runtime.store.collection('checkout_sessions').getGlobal(sessionId);

      expect(stored).toMatchObject({ id: sessionId, merchant_id: MERCHANT.merchantId });
      expect(stored).not.toHaveProperty('owner_merchant_id');
    } finally {
      await vault.stop();
    }
  });

  it('when the store holds a session as earlier versions wrote it (system scope, owner_merchant_id), then after start it belongs to its merchant and the card entry works', async () => {
    const store = new MemoryDocumentStore();
    await store.register({ name: 'checkout_sessions', indexes: [{ fields: ['payment_id'] }] });
    const sessionId = newId();
    const paymentId = newId();
    await store.transaction((uow) =>
      uow.insert<StoredDocument & Record<string, unknown>>('checkout_sessions', {
        id: sessionId,
        merchant_id: SYSTEM_SCOPE,
        owner_merchant_id: MERCHANT.merchantId,
        payment_id: paymentId,
        amount: 500,
        currency: 'EUR',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        return_url: null,
        state: 'open',
        token_id: null,
        masked_account_number: null,
        scheme: null,
        payment_status: 'processing',
        failure_reason: null,
        opened_at: new Date().toISOString(),
        completed_at: null,
      }),
    );
    const vault = await startVault({ store });
    try {
      expect(await store.collection('checkout_sessions').get(MERCHANT_SCOPE, sessionId)).toMatchObject({ payment_id: paymentId });
      expect(await store.collection('checkout_sessions').count(SYSTEM_SCOPE, {})).toBe(0);

      const answer = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard() });

      expect([answer.status, answer.body.state]).toEqual([201, 'completed']);
      const { token_id } = (await store.collection<{ token_id: string } & StoredDocument>('checkout_sessions').get(MERCHANT_SCOPE, sessionId))!;
      expect((await vault.call(MERCHANT, 'GET', `/tokens/${token_id}`)).status).toBe(200);
    } finally {
      await vault.stop();
      await store.close();
    }
  });
});
