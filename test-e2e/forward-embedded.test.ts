import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { waitFor } from '@vaultline/core';
import { startDestinationStandIns, STAND_IN_CREDENTIALS, type DestinationStandIns, type ReceivedRequest } from './support/destination-stand-ins';
import { ADYEN_BODY, FORWARD_CARDS, IDEMPOTENCY_KEY, forwardToAdyen, forwardToCheckout, forwardToStripe } from './support/forward-scenario';
import { createMerchant, MERCHANT_API_KEY, startSystem, type MerchantApi, type RunningSystem, type TokenView } from './support/merchant-api';

/**
 * POST /forward through the real gateway, forwarder and vault of the embedded profile, to loopback
 * stand-ins shaped like Adyen Checkout v69, Checkout.com and Stripe (allowed through
 * FORWARD_EXTRA_DESTINATIONS, plain http through FORWARD_HTTPS_ONLY=false).
 */
describe('forwarding in the embedded profile: a token filled into requests to Adyen, Checkout.com and Stripe stand-ins', () => {
  const visa = FORWARD_CARDS.visa;
  let standIns: DestinationStandIns;
  let running: RunningSystem;
  let merchant: MerchantApi;
  let visaToken: TokenView;

  beforeAll(async () => {
    standIns = await startDestinationStandIns();
    running = await startSystem(standIns.forwarderEnv, 'vaultline-forward-');
    merchant = running.merchant;
    visaToken = await merchant.createToken(visa);
  });
  afterAll(async () => {
    await running?.stop();
    await standIns?.stop();
  });

  const lastRequest = (received: ReceivedRequest[]): ReceivedRequest => {
    expect(received.length).toBeGreaterThan(0);
    return received[received.length - 1]!;
  };
  const allReceived = () => [...standIns.adyen.received, ...standIns.checkout.received, ...standIns.stripe.received];

  it('when a token is forwarded to Adyen, then Adyen receives the real card data with its X-API-Key and the merchant gets Adyen’s answer with the echoed card number masked', async () => {
    const before = standIns.adyen.received.length;

    const answer = await forwardToAdyen(merchant, visaToken.id, standIns.adyen.url, IDEMPOTENCY_KEY);

    expect(answer.status).toBe(200);
    expect(standIns.adyen.received).toHaveLength(before + 1);
    const sent = lastRequest(standIns.adyen.received);
    expect(sent.headers['x-api-key']).toBe(STAND_IN_CREDENTIALS.adyenApiKey);
    expect(sent.headers['idempotency-key']).toBe(IDEMPOTENCY_KEY);
    expect(JSON.parse(sent.body)).toEqual({
      ...ADYEN_BODY,
      paymentMethod: { type: 'scheme', number: visa.number, expiryMonth: '03', expiryYear: '2031', cvc: visa.cvc },
    });
    const body = answer.json<{ resultCode: string; merchantReference: string; additionalData: { cardNumber: string; cardSummary: string } }>();
    expect(body).toMatchObject({ resultCode: 'Authorised', merchantReference: 'order-1001', additionalData: { cardSummary: '5556' } });
    expect(body.additionalData.cardNumber).toBe('400005******5556');
    expect(answer.text).not.toContain(visa.number);
    expect(answer.headers.get('content-type')).toContain('application/json');
  });

  it('when a token is forwarded to Checkout.com with the merchant’s Authorization, then the bearer credential and integer expiry fields arrive and the merchant gets the 201 payment', async () => {
    const answer = await forwardToCheckout(merchant, visaToken.id, standIns.checkout.url);

    expect(answer.status).toBe(201);
    const sent = lastRequest(standIns.checkout.received);
    expect(sent.headers.authorization).toBe(`Bearer ${STAND_IN_CREDENTIALS.checkoutSecretKey}`);
    expect(JSON.parse(sent.body)).toEqual({
      source: { type: 'card', number: visa.number, expiry_month: 3, expiry_year: 2031, cvv: visa.cvc },
      amount: 2500,
      currency: 'GBP',
      reference: 'order-1002',
    });
    expect(answer.json()).toMatchObject({
      status: 'Authorized',
      approved: true,
      reference: 'order-1002',
      source: { last4: '5556', expiry_month: 3, expiry_year: 2031 },
    });
    expect(answer.json<{ id: string }>().id).toMatch(/^pay_/);
  });

  it('when a token is forwarded form-encoded to Stripe with an Authorization credential pair, then Stripe receives card[number], card[exp_month], card[exp_year] and the secret key', async () => {
    const answer = await forwardToStripe(merchant, visaToken.id, standIns.stripe.url);

    expect(answer.status).toBe(200);
    const sent = lastRequest(standIns.stripe.received);
    expect(sent.headers.authorization).toBe(`Bearer ${STAND_IN_CREDENTIALS.stripeSecretKey}`);
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
      type: 'card',
      'card[number]': visa.number,
      'card[exp_month]': '03',
      'card[exp_year]': '2031',
      'card[cvc]': visa.cvc,
    });
    expect(answer.json()).toMatchObject({ object: 'payment_method', type: 'card', card: { last4: '5556', exp_month: 3, exp_year: 2031 } });
  });

  it('when the merchant forwards, then none of our own headers (X-API-Key, X-SERVICE-TOKEN, X-DESTINATION-URL, credential pairs, the internal JWT) reach a destination', async () => {
    await forwardToAdyen(merchant, visaToken.id, standIns.adyen.url);
    await forwardToCheckout(merchant, visaToken.id, standIns.checkout.url);
    await forwardToStripe(merchant, visaToken.id, standIns.stripe.url);

    const received = allReceived();
    expect(received.length).toBeGreaterThanOrEqual(3);
    for (const request of received) {
      const names = Object.keys(request.headers);
      for (const ours of ['x-service-token', 'x-destination-url', 'x-forward-authorization', 'x-request-id', 'x-forwarded-for', 'traceparent'])
        expect(names).not.toContain(ours);
      expect(names.filter((name) => /^x-api-key-/.test(name))).toEqual([]);
      const values = Object.values(request.headers).flat().join('\n');
      expect(values).not.toContain(MERCHANT_API_KEY);
      expect(values).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT, ours or anyone's
    }
    // The only X-API-Key a destination sees is Adyen's own credential.
    for (const request of [...standIns.checkout.received, ...standIns.stripe.received]) expect(request.headers['x-api-key']).toBeUndefined();
    for (const request of standIns.adyen.received) {
      expect(request.headers['x-api-key']).toBe(STAND_IN_CREDENTIALS.adyenApiKey);
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it('when the destination is not allowed, then the answer is 403 destination_not_allowed and no connection is opened to it', async () => {
    const adyenBefore = standIns.adyen.received.length;

    const unlisted = await forwardToAdyen(merchant, visaToken.id, standIns.refused.url);
    const otherPathOfAllowedHost = await forwardToAdyen(merchant, visaToken.id, `${standIns.adyen.origin}/v68/payments`);
    const sameServerByAnotherName = await forwardToAdyen(merchant, visaToken.id, standIns.adyen.url.replace('127.0.0.1', 'localhost'));

    for (const answer of [unlisted, otherPathOfAllowedHost, sameServerByAnotherName]) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.json()).toMatchObject({ status: 403, code: 'destination_not_allowed' });
    }
    expect(standIns.refused.connections()).toBe(0);
    expect(standIns.refused.received).toHaveLength(0);
    expect(standIns.adyen.received).toHaveLength(adyenBefore);
  });

  it('when another merchant forwards with this merchant’s token, then the answer is 404 token_not_found and nothing is sent', async () => {
    const other = await createMerchant(running.system, 'Second merchant', true);
    const adyenBefore = standIns.adyen.received.length;

    const answer = await forwardToAdyen(other, visaToken.id, standIns.adyen.url);

    expect(answer.status).toBe(404);
    expect(answer.json()).toMatchObject({ status: 404, code: 'token_not_found' });
    expect(answer.text).not.toContain(visa.number);
    expect(standIns.adyen.received).toHaveLength(adyenBefore);
    // The other merchant's own key works; the token is simply not its own.
    expect((await other.call('GET', `/tokens/${visaToken.id}`)).status).toBe(404);
  });

  it('when a token was deleted, then forwarding it answers 410 token_deleted and nothing is sent', async () => {
    const amex = await merchant.createToken(FORWARD_CARDS.amex);
    const delivered = await forwardToAdyen(merchant, amex.id, standIns.adyen.url);
    expect(delivered.status).toBe(200);
    expect(JSON.parse(lastRequest(standIns.adyen.received).body)).toMatchObject({
      paymentMethod: { number: FORWARD_CARDS.amex.number, expiryMonth: '11', expiryYear: '2032', cvc: FORWARD_CARDS.amex.cvc },
    });
    expect((await merchant.call('DELETE', `/tokens/${amex.id}`)).status).toBe(200);
    const adyenBefore = standIns.adyen.received.length;

    const answer = await forwardToAdyen(merchant, amex.id, standIns.adyen.url);

    expect(answer.status).toBe(410);
    expect(answer.json()).toMatchObject({ status: 410, code: 'token_deleted' });
    expect(standIns.adyen.received).toHaveLength(adyenBefore);
  });

  it('when a token is forwarded, then the forwarder asks the vault in-process (no internal HTTP request is served) and the vault audits the detokenization with caller forwarder, the forward’s own request id and the merchant’s apart', async () => {
    const token = await merchant.createToken(visa);
    const served: string[] = [];
    const onRequest = (message: unknown) => void served.push(String((message as { request: IncomingMessage }).request.url));
    subscribe('http.server.request.start', onRequest);
    let answer;
    try {
      answer = await forwardToAdyen(merchant, token.id, standIns.adyen.url);
    } finally {
      unsubscribe('http.server.request.start', onRequest);
    }

    expect(answer.status).toBe(200);
    expect(JSON.parse(lastRequest(standIns.adyen.received).body)).toMatchObject({ paymentMethod: { number: visa.number, cvc: visa.cvc } });
    expect(served).toContain('/forward'); // the merchant's request, at the gateway: the observation works
    expect(served.filter((url) => url.startsWith('/internal/'))).toEqual([]);
    const audit = await fetch(`${running.system.baseUrl}/admin/vault/detokenize-audit?token_id=${token.id}`, {
      headers: { 'X-Admin-Key': running.system.adminApiKey },
    });
    expect(audit.status).toBe(200);
    const entries = ((await audit.json()) as { data: Array<{ request_id: string }> }).data;
    expect(entries).toEqual([
      expect.objectContaining({
        token_id: token.id,
        caller: 'forwarder',
        purpose: 'forward',
        outcome: 'granted',
        security_code_status: 'available',
        client_request_id: answer.headers.get('x-request-id'),
      }),
    ]);
    expect(entries[0]!.request_id).not.toBe(answer.headers.get('x-request-id'));
  });

  it('when a forward is delivered, then it appears as a forward.completed event in GET /events without card data or credentials', async () => {
    const token = await merchant.createToken(visa);
    expect((await forwardToAdyen(merchant, token.id, standIns.adyen.url)).status).toBe(200);
    const adyen = new URL(standIns.adyen.url);

    const event = await waitFor(
      async () => (await merchant.events<{ token_id: string }>('forward.completed')).find((e) => e.data.token_id === token.id),
      10_000,
      50,
    );

    expect(event.type).toBe('forward.completed');
    expect(event.data).toMatchObject({
      token_id: token.id,
      destination_host: adyen.host,
      destination_path: adyen.pathname,
      status: 200,
      outcome: 'delivered',
    });
    const everyForwardEvent = JSON.stringify(await merchant.events('forward.completed'));
    expect(everyForwardEvent).not.toContain(visa.number);
    expect(everyForwardEvent).not.toContain(FORWARD_CARDS.amex.number);
    expect(everyForwardEvent).not.toContain(`"${visa.cvc}"`);
    expect(everyForwardEvent).not.toContain(`"${FORWARD_CARDS.amex.cvc}"`);
    for (const secret of Object.values(STAND_IN_CREDENTIALS)) expect(everyForwardEvent).not.toContain(secret);
  });
});
