import { newId } from '@vaultline/core';
import { NOTIFICATION_HMAC_KEY, NOTIFICATION_WEBHOOK_SECRET, startWithNotifyingAccounts } from './support/notification-accounts';
import { adyenNotification } from '../../../test-e2e/support/adyen-stand-in';
import { checkoutWebhook } from '../../../test-e2e/support/checkout-stand-in';
import { CARDS, MERCHANT, OTHER_MERCHANT, type Harness, type Json } from './support/orchestrator-harness';

const HMAC_KEY = NOTIFICATION_HMAC_KEY;
const WEBHOOK_SECRET = NOTIFICATION_WEBHOOK_SECRET;

let h: Harness;
let adyenId: string;
let checkoutId: string;
beforeEach(async () => {
  ({ h, adyenId, checkoutId } = await startWithNotifyingAccounts());
});
afterEach(async () => {
  await h.stop();
});

/** A signed Adyen dispute item (the signature covers the eight fields; disputeStatus travels beside it, as Adyen sends it). */
function adyenDispute(payment: Json, eventCode: string, disputeStatus?: string, pspReference = 'DSP9TQ4HRL5N8C3X') {
  const notification = adyenNotification(
    { amount: { value: 1250, currency: 'EUR' }, eventCode, eventDate: '2026-06-02T10:00:00+02:00', merchantAccountCode: 'ShopECOM', merchantReference: payment.id, originalReference: 'QFQTPCQ8HXSKGKAB', pspReference, reason: 'Fraud', success: 'true' },
    HMAC_KEY,
  );
  const item = notification.notificationItems[0]!.NotificationRequestItem as Json;
  if (disputeStatus) item.additionalData = { ...item.additionalData, disputeStatus, chargebackReasonCode: '10.4' };
  return JSON.stringify(notification);
}

async function deliverAdyen(raw: string): Promise<void> {
  expect((await h.postPublic(`/processor-notifications/adyen/${adyenId}`, raw)).text).toBe('[accepted]');
  await h.settle();
}

async function deliverCheckout(type: string, payment: Json, id = 'dsp_rbhwd2qrg13uhrp2newf'): Promise<void> {
  const webhook = checkoutWebhook(type, { id, category: 'product_service_not_received', amount: 1000, currency: 'EUR', reason_code: '13.1', payment_id: 'pay_abc', payment_reference: payment.id }, WEBHOOK_SECRET);
  expect((await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(200);
  await h.settle();
}

/** A payment captured on the simulator (its capture settles 200 ms after it is sent). */
async function capturedPayment(): Promise<Json> {
  const payment = await h.payOneOff(MERCHANT, CARDS.approved);
  await h.advance(200);
  const captured = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body;
  expect(captured.status).toBe('captured');
  return captured;
}

const disputesOf = async (payment: Json, caller = MERCHANT): Promise<Json[]> => (await h.call(caller, 'GET', `/payments/${payment.id}/disputes`)).body.data;
const disputeEvents = () => h.events.filter((e) => e.type.startsWith('dispute.')).map((e) => [e.type, e.data.status]);

describe('Adyen chargeback notifications become disputes', () => {
  it('when NOTIFICATION_OF_CHARGEBACK arrives for a captured payment, then the payment has one dispute needing a response and dispute.created is published; a redelivery changes nothing', async () => {
    const payment = await capturedPayment();
    await deliverAdyen(adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended'));
    await deliverAdyen(adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended'));

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
      processor_reference: 'DSP9TQ4HRL5N8C3X',
      livemode: false,
      created_at: h.clock.now().toISOString(),
      updated_at: h.clock.now().toISOString(),
    });
    expect(disputeEvents()).toEqual([['dispute.created', 'needs_response']]);
    expect((await h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body).toEqual(dispute);
  });

  it('when the dispute goes through chargeback, reversal, second chargeback and pre-arbitration, then it moves with each stage and publishes updated and closed events', async () => {
    const payment = await capturedPayment();
    const statuses: string[] = [];
    for (const [code, disputeStatus] of [['NOTIFICATION_OF_CHARGEBACK', 'Undefended'], ['CHARGEBACK', 'Pending'], ['CHARGEBACK_REVERSED', 'Won'], ['SECOND_CHARGEBACK', 'Lost'], ['PREARBITRATION_WON', 'Won']] as const) {
      await deliverAdyen(adyenDispute(payment, code, disputeStatus));
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
    const payment = await capturedPayment();
    await deliverAdyen(adyenDispute(payment, 'CHARGEBACK_REVERSED', 'Won'));
    await deliverAdyen(adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended'));
    await deliverAdyen(adyenDispute(payment, 'CHARGEBACK', 'Undefended'));
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['won']);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'won'],
      ['dispute.closed', 'won'],
    ]);
  });

  it('when a CHARGEBACK arrives already lost (disputeStatus Lost), then the dispute is opened lost; a chargeback naming no payment of the merchant is recorded and opens nothing', async () => {
    const payment = await capturedPayment();
    await deliverAdyen(adyenDispute(payment, 'CHARGEBACK', 'Lost'));
    expect((await disputesOf(payment))[0].status).toBe('lost');
    await deliverAdyen(adyenDispute({ id: '01a208ee-0000-7000-8000-000000000000' }, 'CHARGEBACK', 'Undefended', 'DSPOTHER'));
    expect((await h.call(MERCHANT, 'GET', '/disputes')).body.data).toHaveLength(1);
  });
});

describe('concurrent chargeback notifications', () => {
  it('when two notifications of one new dispute arrive at the same time, then one dispute exists, at the later stage, and its events replay its life', async () => {
    const payment = await capturedPayment();
    await Promise.all([
      h.postPublic(`/processor-notifications/adyen/${adyenId}`, adyenDispute(payment, 'NOTIFICATION_OF_CHARGEBACK', 'Undefended')),
      h.postPublic(`/processor-notifications/adyen/${adyenId}`, adyenDispute(payment, 'CHARGEBACK', 'Pending')),
      h.postPublic(`/processor-notifications/adyen/${adyenId}`, adyenDispute(payment, 'CHARGEBACK', 'Pending')),
    ]);
    await h.settle();
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['under_review']);
    const events = disputeEvents();
    expect(events[0]![0]).toBe('dispute.created');
    expect(events.at(-1)).toEqual([events.length === 1 ? 'dispute.created' : 'dispute.updated', 'under_review']);
    expect(events.length).toBeLessThanOrEqual(2);
  });
});

describe('Checkout.com dispute webhooks become disputes', () => {
  it('when dispute_received, dispute_evidence_submitted and dispute_lost arrive, then the dispute needs a response, is under review, then lost; another merchant sees none of it', async () => {
    const payment = await capturedPayment();
    await deliverCheckout('dispute_received', payment);
    const [opened] = await disputesOf(payment);
    expect(opened).toMatchObject({ status: 'needs_response', reason: 'product_not_received', amount: 1000, processor_reference: 'dsp_rbhwd2qrg13uhrp2newf' });
    await deliverCheckout('dispute_evidence_submitted', payment);
    await deliverCheckout('dispute_lost', payment);
    expect((await disputesOf(payment)).map((d: Json) => d.status)).toEqual(['lost']);
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'lost'],
    ]);
    expect((await h.call(OTHER_MERCHANT, 'GET', `/disputes/${opened.id}`)).body.code).toBe('dispute_not_found');
    expect((await h.call(OTHER_MERCHANT, 'GET', '/disputes')).body.data).toEqual([]);
  });

  it('when a processor\'s dispute names only its own payment reference, then it is found through the account\'s recorded capture notification of that reference; one naming an unknown reference opens nothing', async () => {
    const payment = await capturedPayment();
    const captured = checkoutWebhook('payment_captured', { id: 'pay_ownreference', action_id: 'act_ownreference', reference: payment.id, amount: 1250, currency: 'EUR' }, WEBHOOK_SECRET);
    expect((await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, captured.rawBody, { 'cko-signature': captured.signature })).status).toBe(200);
    await deliverCheckout('dispute_received', { id: 'pay_ownreference' });
    expect((await disputesOf(payment)).map((d: Json) => [d.status, d.processor_reference])).toEqual([['needs_response', 'dsp_rbhwd2qrg13uhrp2newf']]);
    await deliverCheckout('dispute_received', { id: 'pay_neverseen' }, 'dsp_unknownreference1234');
    expect((await h.call(MERCHANT, 'GET', '/disputes')).body.data).toHaveLength(1);
  });

  it('when a dispute webhook is signed with another secret, then 401 and no dispute', async () => {
    const payment = await capturedPayment();
    const webhook = checkoutWebhook('dispute_received', { id: 'dsp_x', amount: 1000, currency: 'EUR', payment_reference: payment.id }, 'whsec_other');
    expect((await h.postPublic(`/processor-notifications/checkout/${checkoutId}`, webhook.rawBody, { 'cko-signature': webhook.signature })).status).toBe(401);
    expect(await disputesOf(payment)).toEqual([]);
  });
});

describe('GET /disputes', () => {
  it('when a merchant has disputes on two payments, then the list is newest first, pages with a cursor, and a live key sees none of the test ones', async () => {
    const first = await capturedPayment();
    const second = await capturedPayment();
    await deliverCheckout('dispute_received', first, 'dsp_first');
    h.clock.advance(1000);
    await deliverCheckout('dispute_received', second, 'dsp_second');
    const page = (await h.call(MERCHANT, 'GET', '/disputes?limit=1')).body;
    expect([page.data.map((d: Json) => d.processor_reference), page.has_more]).toEqual([['dsp_second'], true]);
    const next = (await h.call(MERCHANT, 'GET', `/disputes?limit=1&starting_after=${page.next_cursor}`)).body;
    expect(next.data.map((d: Json) => d.processor_reference)).toEqual(['dsp_first']);
    expect((await h.call({ merchantId: MERCHANT.merchantId, mode: 'live' }, 'GET', '/disputes')).body.data).toEqual([]);
    expect((await h.call(MERCHANT, 'GET', '/disputes/not-a-uuid')).status).toBe(404);
  });
});

describe('the simulator\'s test dispute', () => {
  it('when a test payment is captured on the simulator with the disputed card 4000 0000 0000 2685, then it is disputed at once (needs_response, product_not_received); another card is not', async () => {
    const disputed = await h.payOneOff(MERCHANT, '400000******2685');
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/payments/${disputed.id}`)).body.status).toBe('captured');
    expect((await disputesOf(disputed)).map((d: Json) => [d.status, d.reason, d.amount, d.processor_reference])).toEqual([['needs_response', 'product_not_received', 1250, `sim_dp_${disputed.id}`]]);
    expect(disputeEvents()).toEqual([['dispute.created', 'needs_response']]);
    const moved = await h.call(MERCHANT, 'POST', `/payments/${disputed.id}/test/dispute`, { status: 'lost' });
    expect(moved.body.status).toBe('lost');
    expect(await disputesOf(await capturedPayment())).toEqual([]);
  });

  it('when a test key opens a dispute on a captured payment and then moves it, then it is needs_response, under_review, won, with the same events as a processor\'s', async () => {
    const payment = await capturedPayment();
    const opened = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { reason: 'product_not_received' });
    expect([opened.status, opened.body.status, opened.body.reason, opened.body.amount, opened.body.livemode]).toEqual([200, 'needs_response', 'product_not_received', 1250, false]);
    await h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { status: 'under_review' });
    const won = await h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, { status: 'won' });
    expect([won.body.id, won.body.status]).toEqual([opened.body.id, 'won']);
    await h.settle();
    expect(disputeEvents()).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'won'],
    ]);
  });

  it('when the payment is not captured, the key is live, or the payment is another merchant\'s or mode\'s, then 409 dispute_not_allowed, 403 test_mode_only, 404', async () => {
    const declined = await h.payOneOff(MERCHANT, CARDS.declined);
    expect((await h.call(MERCHANT, 'POST', `/payments/${declined.id}/test/dispute`, {})).body.code).toBe('dispute_not_allowed');
    // A live key names a test payment: not found, as any id of the other mode.
    expect((await h.call({ ...MERCHANT, mode: 'live' }, 'POST', `/payments/${declined.id}/test/dispute`, {})).body.code).toBe('payment_not_found');
    const captured = await capturedPayment();
    // A live key on its own live payment: the route simulates a processor in test mode only.
    const { version: _version, ...stored } = (await h.store.collection<Json & { version: number }>('payments').get({ merchantId: MERCHANT.merchantId, mode: 'test' }, captured.id))!;
    const live = { ...stored, id: newId(), mode: 'live' };
    await h.store.transaction((uow) => uow.insert('payments', live));
    expect((await h.call({ ...MERCHANT, mode: 'live' }, 'POST', `/payments/${live.id}/test/dispute`, {})).body.code).toBe('test_mode_only');
    expect((await h.call(OTHER_MERCHANT, 'POST', `/payments/${captured.id}/test/dispute`, {})).body.code).toBe('payment_not_found');
    expect((await h.call(MERCHANT, 'POST', `/payments/${captured.id}/test/dispute`, { status: 'pending' })).status).toBe(422);
  });
});
