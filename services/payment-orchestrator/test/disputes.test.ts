import { newId } from '@vaultline/core';
import { adyenNotification } from '../src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook } from '../src/processors/checkout/dev/checkout.stand-in';
import { CREDENTIALS, HMAC_KEY, useDisputeWorld } from './support/dispute-stand-ins';
import { CARDS, MERCHANT, OTHER_MERCHANT, type Json } from './support/orchestrator-harness';

const ctx = useDisputeWorld();

/** A signed Adyen dispute item for a payment Adyen captured (the signature covers the eight fields; disputeStatus travels beside it, as Adyen sends it). */
function adyenDispute(payment: Json, eventCode: string, disputeStatus?: string, pspReference = 'DSP9TQ4HRL5N8C3X', extra: Record<string, string> = {}) {
  const notification = adyenNotification(
    {
      amount: { value: 1250, currency: 'EUR' },
      eventCode,
      eventDate: '2026-06-02T10:00:00+02:00',
      merchantAccountCode: 'ShopECOM',
      merchantReference: payment.id,
      originalReference: ctx.standIns.adyen.payments.find((p) => p.body.reference === payment.id)?.pspReference ?? 'QFQTPCQ8HXSKGKAB',
      pspReference,
      reason: 'Fraud',
      success: 'true',
    },
    HMAC_KEY,
  );
  const item = notification.notificationItems[0]!.NotificationRequestItem as Json;
  item.additionalData = { ...item.additionalData, ...(disputeStatus ? { disputeStatus, chargebackReasonCode: '10.4' } : {}), ...extra };
  return notification;
}

async function deliverCheckoutDispute(
  type: string,
  payment: Json,
  id = 'dsp_rbhwd2qrg13uhrp2newf',
  reference: Record<string, string> = { payment_reference: payment.id },
): Promise<void> {
  const webhook = checkoutWebhook(
    type,
    { id, category: 'product_service_not_received', amount: 1000, currency: 'EUR', reason_code: '13.1', payment_id: 'pay_abc', ...reference },
    CREDENTIALS.checkout.webhook_secret,
  );
  expect(await ctx.world.deliverCheckout(webhook)).toBe(200);
}

const disputesOf = async (payment: Json, caller = MERCHANT): Promise<Json[]> => (await ctx.h.call(caller, 'GET', `/payments/${payment.id}/disputes`)).body.data;
const disputeEvents = () => ctx.h.events.filter((e) => e.type.startsWith('dispute.')).map((e) => [e.type, e.data.status]);

describe('Adyen chargeback notifications become disputes', () => {
  it("when NOTIFICATION_OF_CHARGEBACK arrives for a payment Adyen captured, then the payment has one dispute needing a response (with Adyen's defense deadline) and dispute.created is published; a redelivery changes nothing", async () => {
    const payment = await ctx.world.capturedOn('adyen');
    const notification = adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended', undefined, { defensePeriodEndsAt: '2026-06-20T10:00:00+02:00' });
    await ctx.world.deliverAdyen(notification);
    await ctx.world.deliverAdyen(notification);

    const [dispute, ...others] = await disputesOf(payment);
    expect(others).toEqual([]);
    expect(dispute).toEqual({
      id: expect.any(String),
      object: 'dispute',
      payment_id: payment.id,
      amount: 1250,
      currency_code: 'EUR',
      status: 'needs_response',
      reason: 'fraudulent',
      kind: 'chargeback',
      processor_reference: 'DSP9TQ4HRL5N8C3X',
      evidence_due_by: '2026-06-20T08:00:00.000Z',
      evidence_submitted_at: null,
      livemode: false,
      created_at: ctx.h.clock.now().toISOString(),
      updated_at: ctx.h.clock.now().toISOString(),
    });
    expect(disputeEvents()).toEqual([['dispute.created', 'needs_response']]);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body).toEqual(dispute);
  });

  it('when the dispute goes through chargeback, reversal, second chargeback and pre-arbitration, then it moves with each stage and publishes updated and closed events', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    const statuses: string[] = [];
    for (const [code, disputeStatus] of [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended'],
      ['CHARGEBACK', 'Pending'],
      ['CHARGEBACK_REVERSED', 'Won'],
      ['SECOND_CHARGEBACK', 'Lost'],
      ['PREARBITRATION_WON', 'Won'],
    ] as const) {
      await ctx.world.deliverAdyen(adyenDispute(payment, code, disputeStatus));
      statuses.push((await disputesOf(payment))[0].status);
    }
    expect(statuses).toEqual(['needs_response', 'under_review', 'won', 'lost', 'won']);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'won'],
      ['dispute.closed', 'lost'],
      ['dispute.closed', 'won'],
    ]);
    expect(await disputesOf(payment)).toHaveLength(1);
  });

  it('when the reversal arrives before the chargeback notification, then the dispute is created won and the late notification of an earlier stage does not move it back', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    await ctx.world.deliverAdyen(adyenDispute(payment, 'CHARGEBACK_REVERSED', 'Won'));
    await ctx.world.deliverAdyen(adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended'));
    await ctx.world.deliverAdyen(adyenDispute(payment, 'CHARGEBACK', 'Undefended'));
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['won']);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'won'],
      ['dispute.closed', 'won'],
    ]);
  });

  it('when a CHARGEBACK arrives already lost (disputeStatus Lost), then the dispute is opened lost; a chargeback naming no payment of the merchant is recorded and opens nothing', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    await ctx.world.deliverAdyen(adyenDispute(payment, 'CHARGEBACK', 'Lost'));
    expect((await disputesOf(payment))[0].status).toBe('lost');
    await ctx.world.deliverAdyen(adyenDispute({ id: '01a208ee-0000-7000-8000-000000000000' }, 'CHARGEBACK', 'Undefended', 'DSPOTHER'));
    expect((await ctx.h.call(MERCHANT, 'GET', '/disputes')).body.data).toHaveLength(1);
  });

  it('when REQUEST_FOR_INFORMATION arrives, then the dispute is an inquiry (nothing held); the chargeback that follows makes it a chargeback with dispute.updated', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    await ctx.world.deliverAdyen(adyenDispute(payment, 'REQUEST_FOR_INFORMATION'));
    expect((await disputesOf(payment)).map((d: Json) => [d.kind, d.status])).toEqual([['inquiry', 'needs_response']]);
    expect((await ctx.h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.amount).toMatchObject({ disputed: 0, net: 1250 });
    await ctx.world.deliverAdyen(adyenDispute(payment, 'CHARGEBACK', 'Undefended'));
    expect((await disputesOf(payment)).map((d: Json) => [d.kind, d.status])).toEqual([['chargeback', 'needs_response']]);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'needs_response'],
    ]);
  });
});

describe('concurrent chargeback notifications', () => {
  it('when two notifications of one new dispute arrive at the same time, then one dispute exists, at the later stage, and its events replay its life', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    await Promise.all([
      ctx.h.postPublic(
        `/processor-notifications/adyen/${ctx.world.accounts.adyen}`,
        JSON.stringify(adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended')),
      ),
      ctx.h.postPublic(`/processor-notifications/adyen/${ctx.world.accounts.adyen}`, JSON.stringify(adyenDispute(payment, 'CHARGEBACK', 'Pending'))),
      ctx.h.postPublic(`/processor-notifications/adyen/${ctx.world.accounts.adyen}`, JSON.stringify(adyenDispute(payment, 'CHARGEBACK', 'Pending'))),
    ]);
    await ctx.h.settle();
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['under_review']);
    const events = disputeEvents();
    expect(events[0]![0]).toBe('dispute.created');
    expect(events.at(-1)).toEqual([events.length === 1 ? 'dispute.created' : 'dispute.updated', 'under_review']);
    expect(events.length).toBeLessThanOrEqual(2);
  });
});

describe('a notification touches only the payments its processor account handled', () => {
  it('when an Adyen chargeback names a payment that Checkout.com captured (its id as merchantReference), then no dispute is opened on it; the notification is recorded all the same', async () => {
    const foreign = await ctx.world.capturedOn('checkout');
    await ctx.world.deliverAdyen(adyenDispute(foreign, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended'));
    expect(await disputesOf(foreign)).toEqual([]);
    expect(disputeEvents()).toEqual([]);
    const recorded = await ctx.h.store
      .collection<Json>('processor_notifications')
      .findOne({ merchantId: MERCHANT.merchantId, mode: 'test' }, { account_id: ctx.world.accounts.adyen, kind: 'dispute' });
    expect(recorded).toMatchObject({ payment_reference: foreign.id, processor_reference: 'DSP9TQ4HRL5N8C3X' });
  });

  it('when an Adyen chargeback names a payment that the simulator captured, or one of another Adyen account of the merchant, then neither is disputed', async () => {
    const simulated = await ctx.h.payOneOff(MERCHANT, CARDS.approved, { reference: 'simulated-order' });
    await ctx.h.advance(200);
    await ctx.world.deliverAdyen(adyenDispute(simulated, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended', 'DSPSIMULATED'));
    expect(await disputesOf(simulated)).toEqual([]);
    const mine = await ctx.world.capturedOn('adyen');
    const second = await ctx.h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'Adyen US',
      credentials: CREDENTIALS.adyen,
      settings: { base_url: ctx.standIns.adyen.baseUrl },
    });
    await ctx.world.deliverAdyen(adyenDispute(mine, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended', 'DSPOTHERACCOUNT'), second.body.id);
    expect(await disputesOf(mine)).toEqual([]);
    await ctx.world.deliverAdyen(adyenDispute(mine, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended', 'DSPOWNACCOUNT'));
    expect((await disputesOf(mine)).map((d: Json) => d.processor_reference)).toEqual(['DSPOWNACCOUNT']);
  });
});

describe('a refund notification touches only the refunds its account was sent', () => {
  it("when another Adyen account of the merchant reports our succeeded refund failed (REFUND_FAILED naming its id), then the refund stays succeeded; its own account's report moves it", async () => {
    const payment = await ctx.world.capturedOn('adyen');
    const refund = (await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, { amount: 300 })).body;
    await ctx.h.settle();
    const succeeded = [...ctx.standIns.adyen.notifications].reverse().find((n) => n.notificationItems[0]!.NotificationRequestItem.eventCode === 'REFUND')!;
    await ctx.world.deliverAdyen(succeeded);
    expect((await ctx.h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body.status).toBe('succeeded');
    const { additionalData: _signed, ...fields } = succeeded.notificationItems[0]!.NotificationRequestItem;
    const failed = adyenNotification({ ...fields, eventCode: 'REFUND_FAILED', success: 'true' }, HMAC_KEY);
    const other = await ctx.h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: 'Adyen US',
      credentials: CREDENTIALS.adyen,
      settings: { base_url: ctx.standIns.adyen.baseUrl },
    });
    await ctx.world.deliverAdyen(failed, other.body.id);
    expect((await ctx.h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body.status).toBe('succeeded');
    await ctx.world.deliverAdyen(failed);
    expect((await ctx.h.call(MERCHANT, 'GET', `/refunds/${refund.id}`)).body).toMatchObject({ status: 'failed' });
  });
});

describe('Stripe disputes are matched by the PaymentIntent the payment keeps', () => {
  it('when charge.dispute.created arrives for a payment whose payment_intent.succeeded was never delivered, then the dispute opens on the payment that holds that PaymentIntent', async () => {
    const payment = await ctx.world.capturedOn('stripe');
    const intent = ctx.world.referenceOf('stripe', payment);
    expect(
      await ctx.h.store
        .collection<Json>('processor_notifications')
        .findOne({ merchantId: MERCHANT.merchantId, mode: 'test' }, { account_id: ctx.world.accounts.stripe }),
    ).toBeNull();
    const disputeId = ctx.standIns.stripe.dispute(intent, 'product_not_received');
    expect(await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!)).toBe(200);
    expect((await disputesOf(payment)).map((d: Json) => [d.processor_reference, d.status, d.reason, d.kind])).toEqual([
      [disputeId, 'needs_response', 'product_not_received', 'chargeback'],
    ]);
  });

  it('when a Stripe dispute names a PaymentIntent of no payment of the account, then nothing opens', async () => {
    await ctx.world.capturedOn('stripe');
    const webhook = ctx.standIns.stripe.signedEvent('charge.dispute.created', {
      id: 'dp_unknownIntent',
      object: 'dispute',
      amount: 1250,
      currency: 'eur',
      payment_intent: 'pi_neverSeenHere',
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect(await ctx.world.deliverStripe(webhook)).toBe(200);
    expect((await ctx.h.call(MERCHANT, 'GET', '/disputes')).body.data).toEqual([]);
  });
});

describe('Checkout.com dispute webhooks become disputes', () => {
  it('when dispute_received, dispute_evidence_submitted and dispute_lost arrive, then the dispute needs a response, is under review, then lost; another merchant sees none of it', async () => {
    const payment = await ctx.world.capturedOn('checkout');
    await deliverCheckoutDispute('dispute_received', payment);
    const [opened] = await disputesOf(payment);
    expect(opened).toMatchObject({ status: 'needs_response', reason: 'product_not_received', amount: 1000, processor_reference: 'dsp_rbhwd2qrg13uhrp2newf' });
    await deliverCheckoutDispute('dispute_evidence_submitted', payment);
    await deliverCheckoutDispute('dispute_lost', payment);
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['lost']);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'lost'],
    ]);
    expect((await ctx.h.call(OTHER_MERCHANT, 'GET', `/disputes/${opened.id}`)).body.code).toBe('dispute_not_found');
    expect((await ctx.h.call(OTHER_MERCHANT, 'GET', '/disputes')).body.data).toEqual([]);
  });

  it("when a dispute names the payment only by Checkout.com's own id (pay_…), then it is found by the authorization the payment keeps; an unknown id opens nothing", async () => {
    const payment = await ctx.world.capturedOn('checkout');
    await deliverCheckoutDispute('dispute_received', payment, 'dsp_byownreference', { payment_id: ctx.world.referenceOf('checkout', payment) });
    expect((await disputesOf(payment)).map((d: Json) => [d.status, d.processor_reference])).toEqual([['needs_response', 'dsp_byownreference']]);
    await deliverCheckoutDispute('dispute_received', payment, 'dsp_unknownreference1234', { payment_id: 'pay_neverseen' });
    expect((await ctx.h.call(MERCHANT, 'GET', '/disputes')).body.data).toHaveLength(1);
  });

  it('when a dispute webhook is signed with another secret, then 401 and no dispute', async () => {
    const payment = await ctx.world.capturedOn('checkout');
    const webhook = checkoutWebhook('dispute_received', { id: 'dsp_x', amount: 1000, currency: 'EUR', payment_reference: payment.id }, 'whsec_other');
    expect(await ctx.world.deliverCheckout(webhook)).toBe(401);
    expect(await disputesOf(payment)).toEqual([]);
  });
});

describe('GET /disputes', () => {
  it('when a merchant has disputes on two payments, then the list is newest first, pages with a cursor, and a live key sees none of the test ones', async () => {
    const first = await ctx.world.capturedOn('checkout');
    const second = await ctx.world.capturedOn('checkout');
    await deliverCheckoutDispute('dispute_received', first, 'dsp_first');
    ctx.h.clock.advance(1000);
    await deliverCheckoutDispute('dispute_received', second, 'dsp_second');
    const page = (await ctx.h.call(MERCHANT, 'GET', '/disputes?limit=1')).body;
    expect([page.data.map((d: Json) => d.processor_reference), page.has_more]).toEqual([['dsp_second'], true]);
    const next = (await ctx.h.call(MERCHANT, 'GET', `/disputes?limit=1&starting_after=${page.next_cursor}`)).body;
    expect(next.data.map((d: Json) => d.processor_reference)).toEqual(['dsp_first']);
    expect((await ctx.h.call({ merchantId: MERCHANT.merchantId, mode: 'live' }, 'GET', '/disputes')).body.data).toEqual([]);
    expect((await ctx.h.call(MERCHANT, 'GET', '/disputes/not-a-uuid')).status).toBe(404);
  });

  it('when the list is filtered by status or payment_id, then only disputes that match every filter are listed (status=won never lists a lost one); a bad value is 422 naming it', async () => {
    const lost = await ctx.world.capturedOn('checkout');
    const won = await ctx.world.capturedOn('checkout');
    await deliverCheckoutDispute('dispute_lost', lost, 'dsp_lostone');
    await deliverCheckoutDispute('dispute_won', won, 'dsp_wonone');
    const list = async (query: string) => (await ctx.h.call(MERCHANT, 'GET', `/disputes?${query}`)).body.data.map((d: Json) => d.processor_reference);
    expect(await list('status=won')).toEqual(['dsp_wonone']);
    expect(await list('status=lost')).toEqual(['dsp_lostone']);
    expect(await list(`payment_id=${lost.id}`)).toEqual(['dsp_lostone']);
    expect(await list(`payment_id=${lost.id}&status=won`)).toEqual([]);
    expect(await list('status=needs_response')).toEqual([]);
    const refused = await ctx.h.call(MERCHANT, 'GET', '/disputes?status=pending');
    expect([refused.status, refused.body.code, refused.body.field]).toEqual([422, 'validation_failed', 'status']);
    expect((await ctx.h.call(MERCHANT, 'GET', '/disputes?payment_id=nope')).body.field).toBe('payment_id');
  });
});

describe("the simulator's test dispute", () => {
  /** A payment captured on the simulator (its capture settles 200 ms after it is sent). */
  async function capturedPayment(): Promise<Json> {
    await ctx.h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'simulator_auto_capture', rules: [] });
    const payment = await ctx.h.payOneOff(MERCHANT, CARDS.approved);
    await ctx.h.advance(200);
    const captured = (await ctx.h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
    expect(captured.status).toBe('captured');
    return captured;
  }

  it('when a test payment is captured on the simulator with the disputed card 4000 0000 0000 2685, then it is disputed at once (needs_response, product_not_received); another card is not', async () => {
    const disputed = await ctx.h.payOneOff(MERCHANT, '400000******2685');
    await ctx.h.advance(200);
    expect((await ctx.h.call(MERCHANT, 'GET', `/payments/${disputed.id}`)).body.status).toBe('captured');
    expect((await disputesOf(disputed)).map((d: Json) => [d.status, d.reason, d.amount, d.processor_reference])).toEqual([
      ['needs_response', 'product_not_received', 1250, `sim_dp_${disputed.id}`],
    ]);
    expect(disputeEvents()).toEqual([['dispute.created', 'needs_response']]);
    const moved = await ctx.h.call(MERCHANT, 'POST', `/payments/${disputed.id}/test/dispute`, { status: 'lost' });
    expect(moved.body.status).toBe('lost');
    expect(await disputesOf(await capturedPayment())).toEqual([]);
  });

  it("when a test key opens a dispute on a captured payment and then moves it, then it is needs_response, under_review, won, with the same events as a processor's", async () => {
    const payment = await capturedPayment();
    const opened = await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { reason: 'product_not_received' });
    expect([opened.status, opened.body.status, opened.body.reason, opened.body.amount, opened.body.livemode]).toEqual([
      200,
      'needs_response',
      'product_not_received',
      1250,
      false,
    ]);
    await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { status: 'under_review' });
    const won = await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { status: 'won' });
    expect([won.body.id, won.body.status]).toEqual([opened.body.id, 'won']);
    await ctx.h.settle();
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'won'],
    ]);
  });

  it("when the payment is not captured, the key is live, or the payment is another merchant's or mode's, then 409 dispute_not_allowed, 403 test_mode_only, 404", async () => {
    const declined = await ctx.h.payOneOff(MERCHANT, CARDS.declined);
    expect((await ctx.h.call(MERCHANT, 'POST', `/payments/${declined.id}/test/dispute`, {})).body.code).toBe('dispute_not_allowed');
    // A live key names a test payment: not found, as any id of the other mode.
    expect((await ctx.h.call({ ...MERCHANT, mode: 'live' }, 'POST', `/payments/${declined.id}/test/dispute`, {})).body.code).toBe('payment_not_found');
    const captured = await capturedPayment();
    // A live key on its own live payment: the route simulates a processor in test mode only.
    const { version: _version, ...stored } = (await ctx.h.store
      .collection<Json & { version: number }>('payments')
      .get({ merchantId: MERCHANT.merchantId, mode: 'test' }, captured.id))!;
    const live = { ...stored, id: newId(), mode: 'live' };
    await ctx.h.store.transaction((uow) => uow.insert('payments', live));
    expect((await ctx.h.call({ ...MERCHANT, mode: 'live' }, 'POST', `/payments/${live.id}/test/dispute`, {})).body.code).toBe('test_mode_only');
    expect((await ctx.h.call(OTHER_MERCHANT, 'POST', `/payments/${captured.id}/test/dispute`, {})).body.code).toBe('payment_not_found');
    expect((await ctx.h.call(MERCHANT, 'POST', `/payments/${captured.id}/test/dispute`, { status: 'pending' })).status).toBe(422);
  });
});
