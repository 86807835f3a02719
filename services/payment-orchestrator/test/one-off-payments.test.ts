import { CARDS, eventsOf, LIVE_MERCHANT, MERCHANT, OTHER_MERCHANT, oneOff, recurring, startOrchestrator, type Harness } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

describe('one-off payments (consumer present)', () => {
  it('when a one-off payment is created, then it answers 200 processing with a use_sdk session and publishes payment.processing and checkout.session.opened', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ return_url: 'https://shop.example/return' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      amount: { requested: 1250 },
      action_requirement: { type: 'use_sdk', session_id: expect.any(String) },
      created_at: '2026-06-01T10:00:00.000Z',
      currency_code: 'EUR',
      reference: 'order-1',
      status: 'processing',
      use_case: 'ONE_OFF',
      flow: 'simulator_auto_capture',
    });
    expect(created.body.source).toBeUndefined();
    await h.settle();
    const opened = h.events.find((e) => e.type === 'checkout.session.opened');
    expect(opened?.data).toEqual({
      session_id: created.body.action_requirement.session_id,
      payment_id: created.body.id,
      amount: 1250,
      currency: 'EUR',
      expires_at: '2026-06-01T10:30:00.000Z',
      return_url: 'https://shop.example/return',
      allowed_origins: ['https://shop.example'],
    });
    expect(eventsOf(h, created.body.id)).toEqual(['payment.processing']);
  });

  it('when payments are created one after another, then each checkout session id is a random UUIDv4 that shares nothing with its payment id (not a time-ordered id minted next to it)', async () => {
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const created = [];
    for (const [path, body] of [
      ['one-off', oneOff()],
      ['one-off', oneOff()],
      ['recurring', recurring()],
      ['unscheduled', oneOff()],
    ] as const) {
      created.push((await h.call(MERCHANT, 'POST', `/payments/${path}`, body)).body);
    }
    const sessionIds = created.map((payment) => payment.action_requirement.session_id as string);
    for (const [n, sessionId] of sessionIds.entries()) {
      expect(sessionId).toMatch(uuidV4);
      // A UUIDv7 minted in the same millisecond as the payment id starts with the same 12 hex digits.
      expect(sessionId.slice(0, 13)).not.toBe((created[n].id as string).slice(0, 13));
    }
    expect(new Set(sessionIds).size).toBe(sessionIds.length);
  });

  it('when the card is approved on an automatic-capture flow, then the payment stays processing while the capture settles and then is captured, authorized skipped', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.submitCard(created.body, CARDS.approved);
    await h.settle();
    const during = await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`);
    expect(during.body).toMatchObject({ status: 'processing', amount: { requested: 1250, authorized: 1250 } });
    expect(during.body.source).toEqual({
      type: 'card',
      cardholder_name: 'Ada Lovelace',
      expiry_month: 12,
      expiry_year: 2034,
      masked_account_number: CARDS.approved,
      pan_type: 'FPAN',
    });
    await h.advance(200);
    const after = await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`);
    expect(after.body).toMatchObject({ status: 'captured', amount: { requested: 1250, authorized: 1250, captured: 1250 } });
    expect(eventsOf(h, created.body.id)).toEqual(['payment.processing', 'payment.captured']);
    const captured = h.events.find((e) => e.type === 'payment.captured' && e.data.payment_id === created.body.id);
    expect(captured).toMatchObject({
      merchant_id: MERCHANT.merchantId,
      data: {
        status: 'captured',
        amount: { requested: 1250, authorized: 1250, captured: 1250 },
        currency_code: 'EUR',
        use_case: 'ONE_OFF',
        reference: 'order-1',
        credential_id: null,
        initial_payment_id: null,
        flow: 'simulator_auto_capture',
        failure_reason: null,
        masked_account_number: CARDS.approved,
      },
    });
  });

  it('when the consumer pays a one-off payment, then its transactions are authorization then capture on the simulator, 3RI never run', async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.threeRiFails);
    await h.advance(200);
    const transactions = await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`);
    expect(transactions.body.data.map((t: { kind: string; status: string; processor: string }) => [t.processor, t.kind, t.status])).toEqual([
      ['simulator', 'authorization', 'succeeded'],
      ['simulator', 'capture', 'succeeded'],
    ]);
  });

  it.each([
    [CARDS.declined, 'card_declined'],
    [CARDS.insufficientFunds, 'insufficient_funds'],
  ])(
    'when the card %s is declined, then a failed authorization is recorded and the payment waits for another card (%s), failing with it when the session expires',
    async (masked, reason) => {
      const payment = await h.payOneOff(MERCHANT, masked);
      expect(payment).toMatchObject({ status: 'processing', last_failed_attempt: { failure_reason: reason }, amount: { requested: 1250 } });
      expect(payment.amount.authorized).toBeUndefined();
      const transactions = await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`);
      expect(transactions.body.data).toEqual([expect.objectContaining({ kind: 'authorization', status: 'failed', failure_reason: reason })]);
      await h.advance(30 * 60_000);
      expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({ status: 'failed', failure_reason: reason });
      expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.attempt_failed', 'payment.failed']);
    },
  );

  it('when the processor errs for the card, then the payment fails at once with processor_error and an errored authorization is recorded', async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.processorError);
    expect(payment).toMatchObject({ status: 'failed', failure_reason: 'processor_error', amount: { requested: 1250 } });
    const transactions = await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`);
    expect(transactions.body.data).toEqual([expect.objectContaining({ kind: 'authorization', status: 'error' })]);
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.failed']);
  });

  it('when the capture of an automatic-capture payment fails, then the payment moves processing → failed with capture_failed', async () => {
    const payment = await h.payOneOff(MERCHANT, CARDS.captureFails);
    await h.advance(200);
    const after = await h.call(MERCHANT, 'GET', `/payments/${payment.id}`);
    expect(after.body).toMatchObject({ status: 'failed', failure_reason: 'capture_failed', amount: { authorized: 1250 } });
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.failed']);
  });

  it('when the session expires before a card is entered, then the payment fails with session_expired', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.advance(29 * 60_000);
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body.status).toBe('processing');
    await h.advance(60_000);
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'session_expired' });
    expect(eventsOf(h, created.body.id)).toEqual(['payment.processing', 'payment.failed']);
  });

  it('when checkout.session.completed is delivered twice, then the payment runs once: one authorization, one event per move', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const data = await h.submitCard(created.body, CARDS.approved, { eventId: 'evt-dup-1' });
    await h.redeliver(data, MERCHANT.merchantId, 'evt-dup-1');
    await h.redeliver(data, MERCHANT.merchantId, 'evt-dup-2');
    await h.settle();
    await h.advance(200);
    await h.redeliver(data, MERCHANT.merchantId, 'evt-dup-1');
    await h.settle();
    const transactions = await h.call(MERCHANT, 'GET', `/payments/${created.body.id}/transactions`);
    expect(transactions.body.data.map((t: { kind: string }) => t.kind)).toEqual(['authorization', 'capture']);
    expect(eventsOf(h, created.body.id)).toEqual(['payment.processing', 'payment.captured']);
  });

  it('when another merchant reads the payment, then it answers 404', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    expect((await h.call(OTHER_MERCHANT, 'GET', `/payments/${created.body.id}`)).status).toBe(404);
    expect((await h.call(OTHER_MERCHANT, 'GET', `/payments/${created.body.id}/transactions`)).status).toBe(404);
  });

  it('when a live-mode merchant creates a payment whose flow uses the simulator, then it answers 422 simulator_not_allowed_in_live_mode', async () => {
    const answer = await h.call(LIVE_MERCHANT, 'POST', '/payments/one-off', oneOff());
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ code: 'simulator_not_allowed_in_live_mode' });
  });

  it('when payments are listed, then they come newest first with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: `order-${i}` }))).body.id);
    await h.call(OTHER_MERCHANT, 'POST', '/payments/one-off', oneOff());
    const first = await h.call(MERCHANT, 'GET', '/payments?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const second = await h.call(MERCHANT, 'GET', `/payments?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(second.body.has_more).toBe(false);
  });
});

describe('creation refusals', () => {
  it.each([
    ['amount', { amount: 0 }],
    ['amount', { amount: 12.5 }],
    ['amount', { amount: '1250' }],
    ['currency_code', { currency_code: 'EURO' }],
    ['currency_code', { currency_code: 'XXY' }],
    ['currency_code', { currency_code: 'eur' }],
    ['source.type', { source: { type: 'card' } }],
    ['source', { source: undefined }],
    ['return_url', { return_url: 'javascript:alert(1)' }],
    ['return_url', { return_url: 'data:text/html,hi' }],
    ['return_url', { return_url: 'ftp://shop.example/' }],
    ['return_url', { return_url: '/relative' }],
    ['return_url', { return_url: 'http://shop.example/return' }],
  ])('when %s is invalid (%j), then creation answers 422 problem+json naming it', async (field, override) => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(override));
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.field).toBe(field);
  });

  it.each(['http://localhost:3000/done', 'http://127.0.0.1/done', 'http://[::1]:8080/done', 'https://shop.example/done'])(
    'when return_url is %s, then it is accepted',
    async (url) => {
      expect((await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ return_url: url }))).status).toBe(200);
    },
  );

  it('when a currency without minor units is used, then amounts are taken as they are (JPY exponent 0)', async () => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ currency_code: 'JPY', amount: 500 }));
    expect(answer.body).toMatchObject({ currency_code: 'JPY', amount: { requested: 500 } });
  });
});

describe('allowed_origins: the sites that may frame the hosted page and hear its messages', () => {
  const openedFor = async (paymentId: string) => {
    await h.settle();
    return h.events.find((e) => e.type === 'checkout.session.opened' && e.data.payment_id === paymentId)?.data;
  };

  it.each([
    ['one-off', oneOff({ allowed_origins: ['https://shop.example', 'http://localhost:3000'] })],
    ['recurring', recurring({ allowed_origins: ['https://shop.example', 'http://localhost:3000'] })],
    ['unscheduled', oneOff({ allowed_origins: ['https://shop.example', 'http://localhost:3000'] })],
  ])('when a %s payment is created with allowed_origins, then checkout.session.opened carries exactly them', async (kind, body) => {
    const created = await h.call(MERCHANT, 'POST', `/payments/${kind}`, body);
    expect(created.status).toBe(200);
    expect((await openedFor(created.body.id))?.allowed_origins).toEqual(['https://shop.example', 'http://localhost:3000']);
  });

  it('when allowed_origins is not given, then the return_url origin is the one allowed', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ return_url: 'https://shop.example:8443/orders/7?x=1' }));
    expect((await openedFor(created.body.id))?.allowed_origins).toEqual(['https://shop.example:8443']);
  });

  it('when neither allowed_origins nor return_url is given, then no origin is allowed (the page cannot be framed)', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    expect((await openedFor(created.body.id))?.allowed_origins).toEqual([]);
  });

  it('when allowed_origins is an empty list, then no origin is allowed even with a return_url', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ return_url: 'https://shop.example/done', allowed_origins: [] }));
    expect((await openedFor(created.body.id))?.allowed_origins).toEqual([]);
  });

  it('when an origin is given twice or with a trailing slash, then it is kept once, as an origin', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ allowed_origins: ['https://Shop.example/', 'https://shop.example'] }));
    expect((await openedFor(created.body.id))?.allowed_origins).toEqual(['https://shop.example']);
  });

  it.each([
    ['*'],
    ['https://*.shop.example'],
    ['http://shop.example'],
    ['https://shop.example/pay'],
    ['https://shop.example?x=1'],
    ['https://user@shop.example'],
    ['javascript:alert(1)'],
    ['null'],
    ['shop.example'],
    ['https://a;b.example'],
    ['https://shop.example#top'],
  ])('when allowed_origins holds %s (not an https origin, nor http on loopback), then creation answers 422 naming it', async (origin) => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ allowed_origins: [origin] }));
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.field).toBe('allowed_origins.0');
  });

  it('when allowed_origins holds more than 10 origins or is not a list, then creation answers 422 on allowed_origins', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://shop${i}.example`);
    for (const value of [many, 'https://shop.example']) {
      const answer = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ allowed_origins: value }));
      expect([answer.status, answer.body.field]).toEqual([422, 'allowed_origins']);
    }
  });
});

describe('description and locale: what the hosted page shows under the amount and the language it speaks', () => {
  const openedFor = async (paymentId: string) => {
    await h.settle();
    return h.events.find((e) => e.type === 'checkout.session.opened' && e.data.payment_id === paymentId)?.data;
  };

  it.each([
    ['one-off', oneOff({ description: '2 × Ethiopia Guji, 250 g', locale: 'nl_be' })],
    ['recurring', recurring({ description: '2 × Ethiopia Guji, 250 g', locale: 'nl_be' })],
  ])(
    'when a %s payment is created with a description and a locale, then checkout.session.opened carries both, the locale written canonically',
    async (kind, body) => {
      const created = await h.call(MERCHANT, 'POST', `/payments/${kind}`, body);
      expect(created.status).toBe(200);
      expect(await openedFor(created.body.id)).toMatchObject({ description: '2 × Ethiopia Guji, 250 g', locale: 'nl-BE' });
    },
  );

  it('when neither is given, then the event carries neither (the page then follows the browser)', async () => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const opened = await openedFor(created.body.id);
    expect(opened).toBeDefined();
    expect(opened).not.toHaveProperty('description');
    expect(opened).not.toHaveProperty('locale');
  });

  it.each([
    [{ locale: 'pt-BR' }, 'locale'],
    [{ locale: 'german' }, 'locale'],
    [{ description: '' }, 'description'],
    [{ description: 'x'.repeat(201) }, 'description'],
  ])('when %j is sent, then the payment is refused with 422 naming %s', async (fields, field) => {
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff(fields));
    expect([created.status, created.body.field]).toEqual([422, field]);
  });
});
