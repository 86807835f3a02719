import { validateAgainstOpenApi } from '@vaultline/contracts';
import { newId } from '@vaultline/core';
import { CARDS, MERCHANT, OTHER_MERCHANT, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

const payment = (overrides: Record<string, unknown> = {}) => ({
  amount: 1250,
  currency_code: 'EUR',
  confirm: true,
  payment_method_types: ['card'],
  ...overrides,
});
const mandateFor = (use_case: string, mandate_reference = 'contract-7') => ({ store_payment_method_for: { use_case, mandate_reference } });

async function newCustomer(name = 'Ada Lovelace'): Promise<Json> {
  const created = await h.call(MERCHANT, 'POST', '/customers', { name, email: 'ada@example.com' });
  expect(created.status).toBe(201);
  return created.body;
}

async function create(body: Record<string, unknown>): Promise<Json> {
  const created = await h.call(MERCHANT, 'POST', '/payments', body);
  if (created.status !== 201) throw new Error(`POST /payments answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** The consumer pays the session with a new card; resolves with the payment once its capture settled. */
async function paid(body: Record<string, unknown>, masked: string = CARDS.approved): Promise<Json> {
  const created = await create(body);
  await h.submitCard(created, masked);
  await h.settle();
  await h.advance(200);
  return (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
}

/** checkout.session.opened of the payment, as the vault receives it. */
async function openedSessionOf(created: Json): Promise<Json> {
  await h.settle();
  return h.events.find((e) => e.type === 'checkout.session.opened' && e.data.session_id === created.action_requirement.session_id)!.data;
}

/** The consumer confirms the stored card the session shows; resolves with the payment once its capture settled. */
async function confirmStoredCard(created: Json): Promise<Json> {
  await h.confirmStoredCard(created);
  await h.settle();
  await h.advance(200);
  return (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
}

async function firstPayment(customer: Json, useCase = 'recurring_payments', masked: string = CARDS.approved): Promise<Json> {
  return paid(payment({ customer_id: customer.id, ...mandateFor(useCase) }), masked);
}

/** A declined card, then the consumer leaves the hosted page: the payment fails with the card's reason. */
async function declinedThenLeft(body: Record<string, unknown>): Promise<Json> {
  const created = await create(body);
  await h.submitCard(created, CARDS.declined);
  await h.settle();
  expect((await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body).toMatchObject({
    status: 'processing',
    payment_method: null,
    last_failed_attempt: { failure_reason: 'card_declined' },
  });
  await h.abandon(created);
  await h.settle();
  return (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
}

const merchantInitiated = (mandateId: string, overrides: Record<string, unknown> = {}) => ({
  amount: 1000,
  currency_code: 'EUR',
  confirm: true,
  payment_method_id: mandateId,
  ...overrides,
});

async function settledAfterCreate(body: Record<string, unknown>): Promise<{ created: Json; settled: Json }> {
  const created = await create(body);
  await h.settle();
  await h.advance(200);
  return { created, settled: (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body };
}

describe('customers', () => {
  it('when a customer is created, then it answers 201 with id and name, and GET /customers/{id} returns it', async () => {
    const created = await h.call(MERCHANT, 'POST', '/customers', { name: 'Ada Lovelace', email: 'ada@example.com', metadata: { crm: '42' } });
    expect(created).toMatchObject({ status: 201, body: { id: expect.any(String), name: 'Ada Lovelace', email: 'ada@example.com', metadata: { crm: '42' } } });
    expect((await h.call(MERCHANT, 'GET', `/customers/${created.body.id}`)).body).toEqual(created.body);
  });

  it('when customers are listed with limit 1, then the cursor pages through them one by one', async () => {
    const first = await newCustomer('First');
    const second = await newCustomer('Second');
    const page1 = await h.call(MERCHANT, 'GET', '/customers?limit=1');
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, data: [{ id: second.id }] });
    const page2 = await h.call(MERCHANT, 'GET', `/customers?limit=1&starting_after=${page1.body.next_cursor}`);
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: first.id }] });
  });

  it('when the name is missing, then creating a customer answers 422 naming name', async () => {
    expect(await h.call(MERCHANT, 'POST', '/customers', { email: 'ada@example.com' })).toMatchObject({ status: 422, body: { field: 'name' } });
  });

  it('when another merchant reads a customer or its payment methods, then it answers 404 customer_not_found', async () => {
    const customer = await newCustomer();
    expect(await h.call(OTHER_MERCHANT, 'GET', `/customers/${customer.id}`)).toMatchObject({ status: 404, body: { code: 'customer_not_found' } });
    expect(await h.call(OTHER_MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).toMatchObject({
      status: 404,
      body: { code: 'customer_not_found' },
    });
    expect((await h.call(OTHER_MERCHANT, 'GET', '/customers')).body.data).toEqual([]);
  });
});

describe('rule 1: guest payment', () => {
  it('when neither payment_method_id nor store_payment_method_for is given, then it is a guest payment with a session, and after the card nothing is stored and payment_method has no id', async () => {
    const created = await create(payment());
    expect(created).toEqual({
      id: expect.any(String),
      livemode: false,
      amount: 1250,
      action_requirement: { type: 'use_sdk', session_id: expect.any(String), checkout_url: expect.stringMatching(/\/checkout\/[0-9a-f-]{36}$/) },
      created_at: '2026-06-01T10:00:00.000Z',
      currency_code: 'EUR',
      payment_method: null,
      status: 'processing',
      use_case: 'guest_payment',
    });
    await h.submitCard(created);
    await h.settle();
    await h.advance(200);
    const settled = (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
    expect(settled).toMatchObject({
      status: 'captured',
      use_case: 'guest_payment',
      payment_method: { type: 'card', card: { masked_number: CARDS.approved, expiry_month: 12, expiry_year: 2034, cardholder_name: 'Ada Lovelace' } },
    });
    expect(settled.payment_method.id).toBeUndefined();
    expect(
      h.events
        .filter((e) => e.data?.payment_id === created.id && e.type.startsWith('payment.'))
        .map((e) => [e.type, e.data.use_case, e.data.payment_method_id]),
    ).toEqual([
      ['payment.processing', 'guest_payment', null],
      ['payment.captured', 'guest_payment', null],
    ]);
  });
});

describe('rule 2: storing a card for COF payments', () => {
  it('when store_payment_method_for.use_case is cof_payments, then after the authorization payment_method carries an id, use_case stays guest_payment, and the stored card can be read', async () => {
    const settled = await paid(payment({ store_payment_method_for: { use_case: 'cof_payments' } }));
    expect(settled).toMatchObject({
      status: 'captured',
      use_case: 'guest_payment',
      payment_method: { id: expect.any(String), type: 'card', card: { masked_number: CARDS.approved } },
    });
    const method = await h.call(MERCHANT, 'GET', `/payment-methods/${settled.payment_method.id}`);
    expect(method.body).toEqual({
      id: settled.payment_method.id,
      livemode: false,
      type: 'card',
      card: { masked_number: CARDS.approved, expiry_year: 2034, expiry_month: 12, cardholder_name: 'Ada Lovelace' },
    });
  });

  it('when the card to store is declined and the consumer leaves, then nothing is stored and payment_method is null', async () => {
    const customer = await newCustomer();
    const settled = await declinedThenLeft(payment({ customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } }));
    expect(settled).toMatchObject({ status: 'failed', failure_reason: 'card_declined', payment_method: null });
    expect((await h.call(MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);
  });
});

describe('rule 3: a COF payment with a stored card', () => {
  async function storedCard(customerId?: string): Promise<Json> {
    const settled = await paid(payment({ store_payment_method_for: { use_case: 'cof_payments' }, ...(customerId ? { customer_id: customerId } : {}) }));
    return settled.payment_method;
  }

  it('when only payment_method_id is given, then the stored card comes back expanded, use_case is cof_payment, and the session shows the card masked without asking for a security code on the simulator', async () => {
    const method = await storedCard();
    const created = await create({ amount: 700, currency_code: 'EUR', confirm: true, payment_method_id: method.id, payment_method_types: ['card'] });
    expect(created).toEqual({
      id: expect.any(String),
      livemode: false,
      amount: 700,
      action_requirement: { type: 'use_sdk', session_id: expect.any(String), checkout_url: expect.stringMatching(/\/checkout\/[0-9a-f-]{36}$/) },
      created_at: expect.any(String),
      currency_code: 'EUR',
      payment_method: method,
      status: 'processing',
      use_case: 'cof_payment',
    });
    expect((await openedSessionOf(created)).stored_card).toEqual({
      token_id: expect.any(String),
      masked_account_number: CARDS.approved,
      scheme: 'VISA',
      expiry_month: 12,
      expiry_year: 2034,
      cardholder_name: 'Ada Lovelace',
      security_code_required: false,
    });
    const settled = await confirmStoredCard(created);
    expect(settled).toMatchObject({ status: 'captured', use_case: 'cof_payment', payment_method: method });
  });

  it('when the flow authorizes on an Adyen account, then the session of a COF payment asks for the security code', async () => {
    const method = await storedCard();
    const adyen = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'adyen',
      credentials: {
        api_key: 'AQEyhmfxK4PJaBFHw0m_adyen_api_key_Zz42',
        merchant_account: 'ShopECOM',
        hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
      },
    });
    const steps = ['authorization', 'capture'].map((kind) => ({ kind, processor: adyen.body.id }));
    expect((await h.call(MERCHANT, 'POST', '/flows', { name: 'adyen-cof', capture_mode: 'automatic', steps })).status).toBe(201);
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { rules: [{ name: 'cof', when: { use_case: ['ONE_OFF'] }, flow: 'adyen-cof' }] });
    const created = await create({ amount: 700, currency_code: 'EUR', confirm: true, payment_method_id: method.id });
    expect((await openedSessionOf(created)).stored_card).toMatchObject({ masked_account_number: CARDS.approved, security_code_required: true });
  });

  it('when the session of a stored-card payment completes with another token, then the payment ignores it and waits for the stored card', async () => {
    const method = await storedCard();
    const created = await create({ amount: 700, currency_code: 'EUR', confirm: true, payment_method_id: method.id });
    await h.submitCard(created);
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body).toMatchObject({ status: 'processing' });
    expect(await confirmStoredCard(created)).toMatchObject({ status: 'captured' });
  });

  it('when the stored card belongs to another customer than customer_id names, then the payment answers 404 payment_method_not_found', async () => {
    const owner = await newCustomer('Owner');
    const stranger = await newCustomer('Stranger');
    const method = await storedCard(owner.id);
    expect(await h.call(MERCHANT, 'POST', '/payments', payment({ payment_method_id: method.id, customer_id: stranger.id }))).toMatchObject({
      status: 404,
      body: { code: 'payment_method_not_found' },
    });
  });
});

describe('rule 4: a first payment creates a mandate', () => {
  it('when customer_id and store_payment_method_for recurring_payments are given, then after the authorization payment_method is an npr_mandate accepted when the consumer submitted the session, the customer is returned and use_case is first_payment', async () => {
    const customer = await newCustomer();
    const created = await create(payment({ customer_id: customer.id, ...mandateFor('recurring_payments') }));
    expect(created).toMatchObject({
      customer: { id: customer.id, name: 'Ada Lovelace' },
      payment_method: null,
      use_case: 'first_payment',
      action_requirement: { type: 'use_sdk' },
    });
    h.clock.advance(60_000);
    const submitted = await h.submitCard(created);
    await h.settle();
    await h.advance(200);
    const settled = (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
    const card = { masked_number: CARDS.approved, expiry_year: 2034, expiry_month: 12, cardholder_name: 'Ada Lovelace' };
    expect(settled).toMatchObject({
      status: 'captured',
      use_case: 'first_payment',
      customer: { id: customer.id, name: 'Ada Lovelace' },
      payment_method: {
        id: expect.any(String),
        type: 'npr_mandate',
        npr_mandate: { accepted_on: submitted.card.submitted_at, card, customer_id: customer.id, reference: 'contract-7', type: 'recurring_payments' },
      },
    });
    expect(settled.payment_method.npr_mandate.accepted_on).toBe('2026-06-01T10:01:00.000Z');
    expect((await h.call(MERCHANT, 'GET', `/payment-methods/${settled.payment_method.id}`)).body).toEqual(settled.payment_method);
    expect((await h.call(MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).body.data).toEqual([settled.payment_method]);
  });

  it('when the first payment is declined and the consumer leaves, then no mandate exists', async () => {
    const customer = await newCustomer();
    const settled = await declinedThenLeft(payment({ customer_id: customer.id, ...mandateFor('unscheduled_payments') }));
    expect(settled).toMatchObject({ status: 'failed', use_case: 'first_payment', payment_method: null });
    expect((await h.call(MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);
  });

  it('when customer_id is missing, then the first payment answers 422 naming customer_id', async () => {
    expect(await h.call(MERCHANT, 'POST', '/payments', payment(mandateFor('recurring_payments')))).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', field: 'customer_id' },
    });
  });

  it('when mandate_reference is missing, then the first payment answers 422 naming store_payment_method_for.mandate_reference', async () => {
    const customer = await newCustomer();
    const answer = await h.call(
      MERCHANT,
      'POST',
      '/payments',
      payment({ customer_id: customer.id, store_payment_method_for: { use_case: 'unscheduled_payments' } }),
    );
    expect(answer).toMatchObject({ status: 422, body: { field: 'store_payment_method_for.mandate_reference' } });
  });

  it("when customer_id is another merchant's customer, then the payment answers 404 customer_not_found", async () => {
    const customer = await newCustomer();
    expect(await h.call(OTHER_MERCHANT, 'POST', '/payments', payment({ customer_id: customer.id, ...mandateFor('recurring_payments') }))).toMatchObject({
      status: 404,
      body: { code: 'customer_not_found' },
    });
  });
});

describe('rule 5: a mandate from a stored method', () => {
  it('when payment_method_id, customer_id and store_payment_method_for are given, then after the authorization a new npr_mandate with a new id holds the stored card and use_case is first_payment', async () => {
    const customer = await newCustomer();
    const stored = (await paid(payment({ customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } }))).payment_method;
    const created = await create(payment({ payment_method_id: stored.id, customer_id: customer.id, ...mandateFor('unscheduled_payments', 'top-ups') }));
    expect(created).toMatchObject({ use_case: 'first_payment', customer: { id: customer.id }, payment_method: stored });
    expect((await openedSessionOf(created)).stored_card.masked_account_number).toBe(CARDS.approved);
    const settled = await confirmStoredCard(created);
    expect(settled.payment_method).toEqual({
      id: expect.any(String),
      livemode: false,
      type: 'npr_mandate',
      npr_mandate: { accepted_on: expect.any(String), card: stored.card, customer_id: customer.id, reference: 'top-ups', type: 'unscheduled_payments' },
    });
    expect(settled.payment_method.id).not.toBe(stored.id);
  });
});

describe('rule 6: merchant-initiated payments on a mandate', () => {
  it("when a recurring mandate is charged, then there is no session, the mandate and its customer are attached, use_case is recurring_payment, and it is captured with the first payment's network transaction reference", async () => {
    const customer = await newCustomer();
    const first = await firstPayment(customer);
    const mandate = first.payment_method;
    const { created, settled } = await settledAfterCreate(merchantInitiated(mandate.id));
    expect(created).toEqual({
      id: expect.any(String),
      livemode: false,
      amount: 1000,
      created_at: expect.any(String),
      currency_code: 'EUR',
      customer: { id: customer.id, name: 'Ada Lovelace' },
      payment_method: mandate,
      status: 'processing',
      use_case: 'recurring_payment',
    });
    expect(settled).toMatchObject({ status: 'captured', use_case: 'recurring_payment' });
    const stored = await h.store.collection<Json>('payments').get({ merchantId: MERCHANT.merchantId, mode: 'test' }, created.id);
    const initial = await h.store.collection<Json>('payments').get({ merchantId: MERCHANT.merchantId, mode: 'test' }, first.id);
    expect(initial.network_transaction_reference).toEqual(expect.any(String));
    expect(stored).toMatchObject({
      use_case: 'SUBSEQUENT_RECURRING',
      initial_payment_id: first.id,
      network_transaction_reference: initial.network_transaction_reference,
    });
    const transactions = (await h.call(MERCHANT, 'GET', `/payments/${created.id}/transactions`)).body.data;
    expect(transactions.map((t: Json) => [t.kind, t.use_case])).toEqual([
      ['authorization', 'recurring_payment'],
      ['capture', 'recurring_payment'],
    ]);
  });

  it('when a mandate is charged more than its first payment, then the charge is accepted (a mandate has no amount ceiling), but another currency is refused 422 currency_mismatch', async () => {
    const mandate = (await firstPayment(await newCustomer())).payment_method;
    const { created, settled } = await settledAfterCreate(merchantInitiated(mandate.id, { amount: 4999 }));
    expect(created.amount).toBe(4999);
    expect(settled).toMatchObject({ status: 'captured', amount: 4999 });

    const otherCurrency = await h.call(MERCHANT, 'POST', '/payments', merchantInitiated(mandate.id, { currency_code: 'USD' }));
    expect({ status: otherCurrency.status, code: otherCurrency.body.code }).toEqual({ status: 422, code: 'currency_mismatch' });
  });

  it('when an unscheduled mandate is charged on the simulator, then use_case is unscheduled_payment', async () => {
    const customer = await newCustomer();
    const mandate = (await firstPayment(customer, 'unscheduled_payments')).payment_method;
    const { settled } = await settledAfterCreate(merchantInitiated(mandate.id));
    expect(settled).toMatchObject({ status: 'captured', use_case: 'unscheduled_payment', customer: { id: customer.id } });
  });

  it('when REQUIRE_3RI is asked and 3RI fails for the card, then the payment fails without an authorization, as a subsequent payment would', async () => {
    const customer = await newCustomer();
    const mandate = (await firstPayment(customer, 'recurring_payments', CARDS.threeRiFails)).payment_method;
    const { created, settled } = await settledAfterCreate(merchantInitiated(mandate.id, { authentication_preference: 'REQUIRE_3RI' }));
    expect(settled).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.id}/transactions`)).body.data.map((t: Json) => t.kind)).toEqual(['authentication_3ri']);
  });

  it('when the first payment on the mandate did not succeed (authorized, then its capture failed), then the charge answers 409 first_payment_required', async () => {
    const customer = await newCustomer();
    const first = await firstPayment(customer, 'recurring_payments', CARDS.captureFails);
    expect(first).toMatchObject({ status: 'failed', payment_method: { type: 'npr_mandate' } });
    expect(await h.call(MERCHANT, 'POST', '/payments', merchantInitiated(first.payment_method.id))).toMatchObject({
      status: 409,
      body: { code: 'first_payment_required' },
    });
  });

  it('when the mandate was revoked, then the charge answers 410 payment_method_revoked and the mandate no longer reads or lists', async () => {
    const customer = await newCustomer();
    const mandate = (await firstPayment(customer)).payment_method;
    expect((await h.call(MERCHANT, 'DELETE', `/payment-methods/${mandate.id}`)).status).toBe(204);
    expect(await h.call(MERCHANT, 'POST', '/payments', merchantInitiated(mandate.id))).toMatchObject({ status: 410, body: { code: 'payment_method_revoked' } });
    expect(await h.call(MERCHANT, 'GET', `/payment-methods/${mandate.id}`)).toMatchObject({ status: 410, body: { code: 'payment_method_revoked' } });
    expect((await h.call(MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).body.data).toEqual([]);
  });

  it("when the mandate was revoked and its first payment is named on the newer interface's subsequent path, then that path refuses it too (422 use_case_mismatch)", async () => {
    const customer = await newCustomer();
    const first = await firstPayment(customer);
    await h.call(MERCHANT, 'DELETE', `/payment-methods/${first.payment_method.id}`);
    const answer = await h.call(MERCHANT, 'POST', `/payments/recurring/${first.id}/subsequent`, { amount: 1000, currency_code: 'EUR' });
    expect(answer).toMatchObject({ status: 422, body: { code: 'use_case_mismatch', field: 'payment_id' } });
  });

  it('when another merchant charges, reads or revokes the mandate, then it answers 404 payment_method_not_found', async () => {
    const customer = await newCustomer();
    const mandate = (await firstPayment(customer)).payment_method;
    expect(await h.call(OTHER_MERCHANT, 'POST', '/payments', merchantInitiated(mandate.id))).toMatchObject({
      status: 404,
      body: { code: 'payment_method_not_found' },
    });
    expect(await h.call(OTHER_MERCHANT, 'GET', `/payment-methods/${mandate.id}`)).toMatchObject({ status: 404, body: { code: 'payment_method_not_found' } });
    expect(await h.call(OTHER_MERCHANT, 'DELETE', `/payment-methods/${mandate.id}`)).toMatchObject({ status: 404, body: { code: 'payment_method_not_found' } });
  });

  it('when the mandate is charged naming another customer, then it answers 404 payment_method_not_found', async () => {
    const customer = await newCustomer();
    const stranger = await newCustomer('Stranger');
    const mandate = (await firstPayment(customer)).payment_method;
    expect(await h.call(MERCHANT, 'POST', '/payments', merchantInitiated(mandate.id, { customer_id: stranger.id }))).toMatchObject({
      status: 404,
      body: { code: 'payment_method_not_found' },
    });
  });
});

describe('rule 7: unscheduled charged as recurring', () => {
  it('when the flow authorizes on a simulator account without explicit unscheduled support, then an unscheduled mandate is charged as recurring: use_case recurring_payment in the response, the transactions and the events', async () => {
    const account = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'simulator',
      name: 'no unscheduled',
      settings: { explicit_unscheduled: false },
    });
    expect(account).toMatchObject({ status: 201, body: { settings: { explicit_unscheduled: false } } });
    const steps = ['authorization', 'capture'].map((kind) => ({ kind, processor: account.body.id }));
    expect((await h.call(MERCHANT, 'POST', '/flows', { name: 'recurring-only', capture_mode: 'automatic', steps })).status).toBe(201);
    const customer = await newCustomer();
    const mandate = (await firstPayment(customer, 'unscheduled_payments')).payment_method;
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { rules: [{ name: 'mit', when: { use_case: ['SUBSEQUENT_UNSCHEDULED'] }, flow: 'recurring-only' }] });
    const { created, settled } = await settledAfterCreate(merchantInitiated(mandate.id));
    expect(created).toMatchObject({ use_case: 'recurring_payment', payment_method: { type: 'npr_mandate', npr_mandate: { type: 'unscheduled_payments' } } });
    expect(settled).toMatchObject({ status: 'captured', use_case: 'recurring_payment' });
    const transactions = (await h.call(MERCHANT, 'GET', `/payments/${created.id}/transactions`)).body.data;
    expect(transactions.map((t: Json) => [t.processor, t.use_case])).toEqual([
      [account.body.id, 'recurring_payment'],
      [account.body.id, 'recurring_payment'],
    ]);
    const events = h.events.filter((e) => e.data?.payment_id === created.id && e.type.startsWith('payment.'));
    expect(events.map((e) => [e.type, e.data.use_case, e.data.payment_method_id, e.data.customer_id])).toEqual([
      ['payment.processing', 'recurring_payment', mandate.id, customer.id],
      ['payment.captured', 'recurring_payment', mandate.id, customer.id],
    ]);
  });

  it('when a simulator account keeps the default, then it shows explicit_unscheduled true; on an Adyen account the setting is refused', async () => {
    const simulator = await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'simulator', name: 'default' });
    expect(simulator.body.settings).toEqual({ base_url: null, explicit_unscheduled: true, approval_rate: 1, outage: [], seed: null });
    const adyen = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'adyen',
      credentials: {
        api_key: 'AQEyhmfxK4PJaBFHw0m_adyen_api_key_Zz42',
        merchant_account: 'ShopECOM',
        hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
      },
      settings: { explicit_unscheduled: false },
    });
    expect(adyen).toMatchObject({ status: 422, body: { field: 'settings.explicit_unscheduled' } });
  });
});

describe('the answers and the OpenAPI document', () => {
  it('when a customer, a first payment, its mandate, a merchant-initiated payment and the lists are read, then each answer is valid against the documented schema', async () => {
    const customer = await newCustomer();
    const created = await create(payment({ customer_id: customer.id, ...mandateFor('recurring_payments') }));
    await h.submitCard(created);
    await h.settle();
    await h.advance(200);
    const first = (await h.call(MERCHANT, 'GET', `/payments/${created.id}`)).body;
    const charge = await h.call(MERCHANT, 'POST', '/payments', merchantInitiated(first.payment_method.id));
    const answers: Array<[string, string, number, unknown]> = [
      ['post', '/customers', 201, customer],
      ['post', '/payments', 201, created],
      ['get', '/payments/{payment_id}', 200, first],
      ['post', '/payments', 201, charge.body],
      ['get', '/payment-methods/{payment_method_id}', 200, (await h.call(MERCHANT, 'GET', `/payment-methods/${first.payment_method.id}`)).body],
      ['get', '/customers/{customer_id}/payment-methods', 200, (await h.call(MERCHANT, 'GET', `/customers/${customer.id}/payment-methods`)).body],
      ['get', '/customers', 200, (await h.call(MERCHANT, 'GET', '/customers')).body],
      ['get', '/payments', 200, (await h.call(MERCHANT, 'GET', '/payments')).body],
      ['get', '/payments/{payment_id}/transactions', 200, (await h.call(MERCHANT, 'GET', `/payments/${first.id}/transactions`)).body],
    ];
    for (const [method, path, status, body] of answers)
      expect({ method, path, ...validateAgainstOpenApi(method, path, status, body) }).toEqual({ method, path, valid: true, errors: [] });
  });
});

describe('refusals and reads', () => {
  it.each([
    ['confirm is false', { confirm: false }],
    ['confirm is missing', { confirm: undefined }],
  ])('when %s, then POST /payments answers 422 confirm_required', async (_case, override) => {
    expect(await h.call(MERCHANT, 'POST', '/payments', payment(override))).toMatchObject({ status: 422, body: { code: 'confirm_required', field: 'confirm' } });
  });

  it.each([
    ['payment_method_types.0', { payment_method_types: ['sepa_debit'] }],
    ['store_payment_method_for.use_case', { store_payment_method_for: { use_case: 'forever' } }],
    ['amount', { amount: 12.5 }],
    ['currency_code', { currency_code: 'eur' }],
  ])('when %s is invalid, then POST /payments answers 422 naming it', async (field, override) => {
    const answer = await h.call(MERCHANT, 'POST', '/payments', payment(override));
    expect(answer).toMatchObject({ status: 422, body: { field } });
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
  });

  it('when payment_method_id names no method, then POST /payments answers 404 payment_method_not_found', async () => {
    expect(await h.call(MERCHANT, 'POST', '/payments', payment({ payment_method_id: newId() }))).toMatchObject({
      status: 404,
      body: { code: 'payment_method_not_found' },
    });
  });

  it('when payments of both interfaces exist, then GET /payments lists each in the shape of the interface that created it', async () => {
    const newer = await h.call(MERCHANT, 'POST', '/payments/one-off', { amount: 900, currency_code: 'EUR', source: { type: 'vaultline' } });
    const earlier = await create(payment());
    const list = (await h.call(MERCHANT, 'GET', '/payments')).body.data;
    expect(list.find((p: Json) => p.id === newer.body.id)).toMatchObject({ amount: { requested: 900 }, use_case: 'ONE_OFF' });
    expect(list.find((p: Json) => p.id === earlier.id)).toMatchObject({ amount: 1250, use_case: 'guest_payment' });
  });
});

describe('the hosted page of an earlier-interface payment', () => {
  it('when a guest payment is created with a description and a locale, then the session the vault receives carries both', async () => {
    const created = await create(payment({ description: 'Annual membership', locale: 'it' }));
    expect(await openedSessionOf(created)).toMatchObject({ description: 'Annual membership', locale: 'it' });
  });
});
