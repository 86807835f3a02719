import { CARDS, eventsOf, MERCHANT, OTHER_MERCHANT, recurring, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

const subsequent = (overrides: Record<string, unknown> = {}) => ({ amount: 1000, currency_code: 'EUR', reference: 'month-2', ...overrides });
const at = (iso: string) => ({ 'x-test-now': iso });

async function paidInitial(path: '/payments/recurring' | '/payments/unscheduled', masked: string = CARDS.approved): Promise<Json> {
  const payment = await h.payOneOff(MERCHANT, masked, path === '/payments/recurring' ? recurring() : {}, path);
  await h.advance(200);
  return (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
}

describe('initial recurring and unscheduled payments', () => {
  it('when an initial recurring payment is created, then it answers processing with a session, credential_id, recurring_frequency and recurring_expiry', async () => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/recurring', recurring());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      action_requirement: { type: 'use_sdk' },
      credential_id: expect.any(String),
      recurring_frequency: 30,
      recurring_expiry: '20271231',
      status: 'processing',
      use_case: 'RECURRING',
    });
  });

  it('when an initial unscheduled payment is created, then it answers processing with a session and credential_id', async () => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/unscheduled', oneOff());
    expect(answer.body).toMatchObject({
      action_requirement: { type: 'use_sdk' },
      credential_id: expect.any(String),
      status: 'processing',
      use_case: 'UNSCHEDULED',
    });
    expect(answer.body.recurring_frequency).toBeUndefined();
  });

  it.each([
    ['recurring_expiry', { recurring_expiry: '20270230' }],
    ['recurring_expiry', { recurring_expiry: '2027-12-31' }],
    ['recurring_expiry', { recurring_expiry: '20260531' }],
    ['recurring_frequency', { recurring_frequency: 0 }],
    ['recurring_frequency', { recurring_frequency: 1.5 }],
    ['recurring_frequency', { recurring_frequency: undefined }],
  ])('when %s is invalid (%j), then the initial recurring payment answers 422 naming it', async (field, override) => {
    const answer = await h.call(MERCHANT, 'POST', '/payments/recurring', recurring(override));
    expect(answer.status).toBe(422);
    expect(answer.body.field).toBe(field);
  });

  it('when recurring_expiry is today, then it is accepted (not in the past)', async () => {
    expect((await h.call(MERCHANT, 'POST', '/payments/recurring', recurring({ recurring_expiry: '20260601' }))).status).toBe(200);
  });
});

describe('subsequent payments', () => {
  it('when a subsequent recurring payment comes a month later (test clock), then it copies the source, echoes NO_3RI and is captured without 3RI', async () => {
    const initial = await paidInitial('/payments/recurring');
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-07-01T10:00:00Z'));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      amount: { requested: 1000 },
      authentication_preference: 'NO_3RI',
      created_at: '2026-07-01T10:00:00.000Z',
      credential_id: initial.credential_id,
      initial_payment_id: initial.id,
      source: initial.source,
      status: 'processing',
      use_case: 'SUBSEQUENT_RECURRING',
    });
    expect(answer.body.action_requirement).toBeUndefined();
    await h.settle();
    await h.advance(200);
    const after = await h.call(MERCHANT, 'GET', `/payments/${answer.body.id}`);
    expect(after.body).toMatchObject({ status: 'captured', amount: { captured: 1000 } });
    const kinds = (await h.call(MERCHANT, 'GET', `/payments/${answer.body.id}/transactions`)).body.data.map((t: Json) => t.kind);
    expect(kinds).toEqual(['authorization', 'capture']);
  });

  it('when a subsequent unscheduled payment is made, then it answers SUBSEQUENT_UNSCHEDULED with no action requirement', async () => {
    const initial = await paidInitial('/payments/unscheduled');
    const answer = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ authentication_preference: 'TRY_3RI' }));
    expect(answer.body).toMatchObject({
      use_case: 'SUBSEQUENT_UNSCHEDULED',
      authentication_preference: 'TRY_3RI',
      initial_payment_id: initial.id,
      credential_id: initial.credential_id,
    });
    expect(answer.body.action_requirement).toBeUndefined();
  });

  it('when the amount is above the initial amount, then it answers 422 amount_exceeds_initial', async () => {
    const initial = await paidInitial('/payments/unscheduled');
    const answer = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ amount: 1251 }));
    expect(answer).toMatchObject({ status: 422, body: { code: 'amount_exceeds_initial', field: 'amount' } });
  });

  it("when the currency is not the initial payment's, then it answers 422 currency_mismatch", async () => {
    const initial = await paidInitial('/payments/unscheduled');
    expect(await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ currency_code: 'USD' }))).toMatchObject({
      status: 422,
      body: { code: 'currency_mismatch', field: 'currency_code' },
    });
  });

  it('when REQUIRE_3RI is asked and the chosen flow has no 3RI step, then it answers 422 authentication_not_configured', async () => {
    const initial = await paidInitial('/payments/unscheduled');
    const flow = {
      name: 'no-3ri',
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', processor: 'simulator' },
        { kind: 'capture', processor: 'simulator' },
      ],
    };
    expect((await h.call(MERCHANT, 'POST', '/flows', flow)).status).toBe(201);
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { rules: [{ name: 'mit-without-3ri', when: { use_case: ['SUBSEQUENT_UNSCHEDULED'] }, flow: 'no-3ri' }] });
    const required = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ authentication_preference: 'REQUIRE_3RI' }));
    expect(required).toMatchObject({ status: 422, body: { code: 'authentication_not_configured', field: 'authentication_preference' } });
    const tried = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ authentication_preference: 'TRY_3RI' }));
    expect(tried.body).toMatchObject({ status: 'processing', flow: 'no-3ri', authentication_preference: 'TRY_3RI' });
  });

  it('when fewer than recurring_frequency days passed since the last successful payment, then it answers 422 recurring_frequency_not_respected', async () => {
    const initial = await paidInitial('/payments/recurring');
    const early = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-06-30T23:59:59Z'));
    expect(early).toMatchObject({ status: 422, body: { code: 'recurring_frequency_not_respected' } });
    const due = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-07-01T00:00:00Z'));
    expect(due.status).toBe(200);
    await h.settle();
    const again = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-07-15T10:00:00Z'));
    expect(again).toMatchObject({ status: 422, body: { code: 'recurring_frequency_not_respected' } });
  });

  it('when several subsequent recurring payments are requested at once, then exactly one passes the frequency rule', async () => {
    const initial = await paidInitial('/payments/recurring');
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() => h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-07-01T10:00:00Z'))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(['recurring_frequency_not_respected', 'concurrent_modification']).toContain(refused.body.code);
    }
  });

  it('when a subsequent payment fails, then it does not count for the frequency rule', async () => {
    const initial = await paidInitial('/payments/recurring', CARDS.threeRiFails);
    const failing = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      subsequent({ authentication_preference: 'REQUIRE_3RI' }),
      at('2026-07-01T10:00:00Z'),
    );
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${failing.body.id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    const retry = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2026-07-02T10:00:00Z'));
    expect(retry.status).toBe(200);
  });

  it('when the date is after recurring_expiry, then it answers 422 credentials_expired', async () => {
    const initial = await paidInitial('/payments/recurring');
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('2028-01-01T00:00:00Z'));
    expect(answer).toMatchObject({ status: 422, body: { code: 'credentials_expired' } });
  });

  it('when the initial payment is neither authorized nor captured, then it answers 409 initial_payment_not_successful', async () => {
    const unpaid = await h.call(MERCHANT, 'POST', '/payments/recurring', recurring());
    const pending = await h.call(MERCHANT, 'POST', `/payments/recurring/${unpaid.body.id}/subsequent`, subsequent());
    expect(pending).toMatchObject({ status: 409, body: { code: 'initial_payment_not_successful' } });
    const declined = await paidInitial('/payments/recurring', CARDS.declined);
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${declined.id}/subsequent`, subsequent(), at('2026-07-01T10:00:00Z'));
    expect(answer).toMatchObject({ status: 409, body: { code: 'initial_payment_not_successful' } });
  });

  it("when the path's use case is not the initial payment's (another initial kind, a one-off, a subsequent payment), then it answers 422 use_case_mismatch", async () => {
    const initial = await paidInitial('/payments/unscheduled');
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent());
    expect(answer).toMatchObject({ status: 422, body: { code: 'use_case_mismatch' } });
    const oneOffPayment = await h.payOneOff(MERCHANT, CARDS.approved);
    for (const path of ['recurring', 'unscheduled']) {
      expect(await h.call(MERCHANT, 'POST', `/payments/${path}/${oneOffPayment.id}/subsequent`, subsequent())).toMatchObject({
        status: 422,
        body: { code: 'use_case_mismatch' },
      });
    }
    const second = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent());
    await h.settle();
    expect(await h.call(MERCHANT, 'POST', `/payments/unscheduled/${second.body.id}/subsequent`, subsequent())).toMatchObject({
      status: 422,
      body: { code: 'use_case_mismatch' },
    });
  });

  it('when another merchant names the initial payment, then it answers 404', async () => {
    const initial = await paidInitial('/payments/unscheduled');
    expect((await h.call(OTHER_MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent())).status).toBe(404);
  });

  it('when X-Test-Now is malformed, then it answers 422 invalid_test_clock', async () => {
    const initial = await paidInitial('/payments/recurring');
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${initial.id}/subsequent`, subsequent(), at('next month'));
    expect(answer).toMatchObject({ status: 422, body: { code: 'invalid_test_clock' } });
  });
});

describe('3RI on merchant-initiated payments', () => {
  async function subsequentWith(preference: string, masked: string): Promise<{ payment: Json; kinds: string[][] }> {
    const initial = await paidInitial('/payments/unscheduled', masked === CARDS.threeRiFails ? CARDS.threeRiFails : CARDS.approved);
    const created = await h.call(MERCHANT, 'POST', `/payments/unscheduled/${initial.id}/subsequent`, subsequent({ authentication_preference: preference }));
    await h.settle();
    await h.advance(200);
    const payment = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
    const kinds = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.status]);
    return { payment, kinds };
  }

  it('when REQUIRE_3RI and 3RI fails, then the payment fails with authentication_failed and no authorization transaction exists', async () => {
    const { payment, kinds } = await subsequentWith('REQUIRE_3RI', CARDS.threeRiFails);
    expect(payment).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    expect(kinds).toEqual([['authentication_3ri', 'failed']]);
    expect(eventsOf(h, payment.id)).toEqual(['payment.processing', 'payment.failed']);
  });

  it('when TRY_3RI and 3RI fails, then the payment goes on to authorization and is captured', async () => {
    const { payment, kinds } = await subsequentWith('TRY_3RI', CARDS.threeRiFails);
    expect(payment.status).toBe('captured');
    expect(kinds).toEqual([
      ['authentication_3ri', 'failed'],
      ['authorization', 'succeeded'],
      ['capture', 'succeeded'],
    ]);
  });

  it('when REQUIRE_3RI and 3RI succeeds, then authentication, authorization and capture are recorded', async () => {
    const { payment, kinds } = await subsequentWith('REQUIRE_3RI', CARDS.approved);
    expect(payment.status).toBe('captured');
    expect(kinds).toEqual([
      ['authentication_3ri', 'succeeded'],
      ['authorization', 'succeeded'],
      ['capture', 'succeeded'],
    ]);
  });

  it('when NO_3RI (the default), then the 3RI step is skipped', async () => {
    const { kinds } = await subsequentWith('NO_3RI', CARDS.threeRiFails);
    expect(kinds).toEqual([
      ['authorization', 'succeeded'],
      ['capture', 'succeeded'],
    ]);
  });

  it('when an initial (consumer-present) payment is made with REQUIRE-worthy card, then 3RI never runs', async () => {
    const initial = await paidInitial('/payments/unscheduled', CARDS.threeRiFails);
    const kinds = (await h.call(MERCHANT, 'GET', `/payments/${initial.id}/transactions`)).body.data.map((t: Json) => t.kind);
    expect(kinds).toEqual(['authorization', 'capture']);
  });
});
