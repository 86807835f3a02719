import { eventMessage } from '@vaultline/bus';
import { paymentActionRequiredV1, topics, type ConsumerAction } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { openSession, paymentStatusMessage } from './checkout-helpers';
import { aCard, captureTopics, MERCHANT_SCOPE, PUBLIC, startVault, type VaultHarness } from './vault-harness';

/** 3-D Secure on the hosted page's server: the way to the bank, the way back, the simulator's bank page. */
let vault: VaultHarness;
let captured: Awaited<ReturnType<typeof captureTopics>>;
beforeEach(async () => {
  vault = await startVault();
  captured = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
});
afterEach(async () => {
  await captured.stop();
  await vault.stop();
});

const GET_ACTION: ConsumerAction = {
  type: 'redirect',
  url: 'https://acs.bank.example/challenge?id=42',
  method: 'GET',
  data: {},
  return_parameters: ['redirectResult'],
};

/** A public request as the gateway forwards it, redirects not followed. */
async function browse(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const token = vault.signerFor('gateway').sign('vault', { merchantId: PUBLIC.merchantId, scopes: PUBLIC.scopes });
  return fetch(`${vault.baseUrl}${path}`, { redirect: 'manual', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.7', ...headers } });
}

async function askForAuthentication(paymentId: string, action: ConsumerAction, mode: 'test' | 'live' = 'test'): Promise<void> {
  const processing = JSON.parse(paymentStatusMessage(paymentId, 'processing').value) as Record<string, unknown>;
  const data = { ...(processing.data as Record<string, unknown>), action } as never;
  await vault.runtime.bus.publish([eventMessage(paymentActionRequiredV1, { scope: { ...MERCHANT_SCOPE, mode }, data })]);
}

async function waitingSession(action: ConsumerAction = GET_ACTION) {
  const session = await openSession(vault, { amount: 4250 });
  expect((await vault.call(PUBLIC, 'POST', `/sessions/${session.sessionId}/card`, { card: aCard({ number: '4000000000003063' }) })).status).toBe(201);
  await askForAuthentication(session.paymentId, action);
  await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${session.sessionId}/status`)).body.authentication !== null);
  return session;
}

const returned = () => captured.events().filter((e) => e.type === 'checkout.session.returned');

describe('the way to the bank', () => {
  it("when the bank asks (payment.action_required), then the page's status says authentication required, never the bank's address, and /authenticate redirects there", async () => {
    const { sessionId } = await waitingSession();
    const status = await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`);
    expect(status.body).toMatchObject({ payment_status: 'processing', authentication: { state: 'required' } });
    expect(JSON.stringify(status.body)).not.toContain('acs.bank.example');
    const answer = await browse(`/checkout/${sessionId}/authenticate`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('https://acs.bank.example/challenge?id=42');
  });

  it("when the bank wants a POST, then the page is a form to the bank's address with its fields escaped, and the policy lets forms go to the bank's origin only", async () => {
    const { sessionId } = await waitingSession({ ...GET_ACTION, method: 'POST', data: { creq: 'eyJ0"><script>x</script>', MD: 'md-1' } });
    const answer = await browse(`/checkout/${sessionId}/authenticate`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain('form-action https://acs.bank.example;');
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await answer.text();
    expect(html).toContain('<form id="issuer-form" method="post" action="https://acs.bank.example/challenge?id=42">');
    expect(html).toContain('name="creq" value="eyJ0&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(html).toContain('<script src="/checkout/assets/checkout-redirect.js"></script>');
  });

  it('when an action names an address the page must not follow (javascript:, http off loopback), then the session ignores it', async () => {
    const session = await openSession(vault);
    await vault.call(PUBLIC, 'POST', `/sessions/${session.sessionId}/card`, { card: aCard() });
    await askForAuthentication(session.paymentId, { ...GET_ACTION, url: 'http://acs.bank.example/' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${session.sessionId}/status`)).body.authentication).toBeNull();
    expect((await browse(`/checkout/${session.sessionId}/authenticate`)).headers.get('location')).toBe(`/checkout/${session.sessionId}`);
  });
});

describe('the way back', () => {
  it('when the consumer comes back, then only the named parameter goes to the orchestrator (checkout.session.returned) and the page is shown again without it in the address', async () => {
    const { sessionId, paymentId } = await waitingSession();
    const answer = await browse(`/checkout/${sessionId}/return?redirectResult=X3dsResult&sessionData=other&card=4242424242424242`);
    expect([answer.status, answer.headers.get('location')]).toEqual([303, `/checkout/${sessionId}`]);
    await waitFor(() => returned().length === 1);
    expect(returned()[0]).toMatchObject({ data: { session_id: sessionId, payment_id: paymentId, parameters: { redirectResult: 'X3dsResult' } } });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.authentication).toEqual({ state: 'returned' });
  });

  it('when the consumer comes back twice, then the second return passes nothing on', async () => {
    const { sessionId } = await waitingSession();
    await browse(`/checkout/${sessionId}/return?redirectResult=first`);
    await browse(`/checkout/${sessionId}/return?redirectResult=second`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(returned().map((e) => (e.data as { parameters: unknown }).parameters)).toEqual([{ redirectResult: 'first' }]);
  });

  it('when a returned value holds a card number, then it is not passed on', async () => {
    const { sessionId } = await waitingSession();
    await browse(`/checkout/${sessionId}/return?redirectResult=pan4242424242424242`);
    await waitFor(() => returned().length === 1);
    expect((returned()[0]!.data as { parameters: unknown }).parameters).toEqual({});
  });

  it('when the payment moved on (failed, abandoned), then a return passes nothing on and shows the page', async () => {
    const { sessionId, paymentId } = await waitingSession();
    await vault.runtime.bus.publish([paymentStatusMessage(paymentId, 'failed', undefined, 'authentication_abandoned')]);
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.payment_status === 'failed');
    expect((await browse(`/checkout/${sessionId}/return?redirectResult=late`)).status).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(returned()).toEqual([]);
  });
});

describe("the simulator's bank page", () => {
  it('when a test-mode session waits for its consumer, then the page offers Complete and Fail, each a form back to the return route', async () => {
    const { sessionId } = await waitingSession();
    const answer = await browse(`/checkout/${sessionId}/test-challenge`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    const html = await answer.text();
    expect(html).toContain('Confirm the payment of 42.50 EUR');
    expect(html).toContain('•••• 3063');
    expect(html).not.toContain('4000000000003063');
    expect(html).toContain(`<form method="get" action="/checkout/${sessionId}/return">`);
    expect(html).toContain('name="simulator_challenge" value="completed"');
    expect(html).toContain('name="simulator_challenge" value="failed"');
  });

  it('when the session is not waiting, then the page is not found', async () => {
    const session = await openSession(vault);
    expect((await browse(`/checkout/${session.sessionId}/test-challenge`)).status).toBe(404);
  });
});

describe('the browser data for 3-D Secure 2', () => {
  it("when the card is submitted with the browser's data, then checkout.session.completed carries it with the page request's Accept header and the client address", async () => {
    const { sessionId } = await openSession(vault);
    await browse(`/checkout/${sessionId}`, { accept: 'text/html,application/xhtml+xml;q=0.9' });
    const browser = {
      user_agent: 'Mozilla/5.0 Test',
      language: 'de-DE',
      screen_width: 390,
      screen_height: 844,
      color_depth: 24,
      time_zone_offset: -120,
      java_enabled: false,
    };
    expect((await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard(), browser }, { 'x-forwarded-for': '198.51.100.4' })).status).toBe(
      201,
    );
    await waitFor(() => captured.events().some((e) => e.type === 'checkout.session.completed'));
    const completed = captured.events().find((e) => e.type === 'checkout.session.completed')!;
    expect((completed.data as { browser: unknown }).browser).toEqual({
      ...browser,
      accept_header: 'text/html,application/xhtml+xml;q=0.9',
      ip_address: '198.51.100.4',
    });
  });

  it('when the browser data is malformed, then the submission is refused 422 naming the field', async () => {
    const { sessionId } = await openSession(vault);
    const answer = await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, {
      card: aCard(),
      browser: { user_agent: 'x', language: 'en', screen_width: -1, screen_height: 1, color_depth: 24, time_zone_offset: 0, java_enabled: false },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.field).toBe('browser.screen_width');
  });
});
