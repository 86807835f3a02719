import { adyenNotification } from '../src/processors/adyen/dev/adyen.stand-in';
import { HMAC_KEY, useDisputeWorld } from './support/dispute-stand-ins';
import { MERCHANT, OTHER_MERCHANT, type Json } from './support/orchestrator-harness';

/**
 * Issue #34, finding 4: Adyen's NOTIFICATION_OF_FRAUD (an issuer's fraud report, Visa TC40 / Mastercard SAFE)
 * opened a dispute that nothing could answer or close. Issuers' fraud reports are early fraud warnings.
 */
const ctx = useDisputeWorld();

const get = async (path: string, caller = MERCHANT): Promise<Json> => (await ctx.h.call(caller, 'GET', path)).body;
const warningEvents = () => ctx.h.events.filter((e) => e.type.startsWith('early_fraud_warning.')).map((e) => [e.type, e.data.fraud_type, e.data.actionable]);

describe('Adyen NOTIFICATION_OF_FRAUD', () => {
  it('when Adyen reports fraud on a payment it captured, then the payment has an early fraud warning (never a dispute) with early_fraud_warning.created, and stays refundable; a redelivery changes nothing', async () => {
    const payment = await ctx.world.capturedOn('adyen');
    const report = ctx.standIns.adyen.fraudNotification(ctx.world.referenceOf('adyen', payment));
    await ctx.world.deliverAdyen(report);
    await ctx.world.deliverAdyen(report);

    const { data } = await get(`/early-fraud-warnings?payment_id=${payment.id}`);
    expect(data).toEqual([
      {
        id: expect.any(String),
        object: 'early_fraud_warning',
        payment_id: payment.id,
        fraud_type: 'unauthorized_use_of_card',
        actionable: true,
        processor_reference: report.notificationItems[0]!.NotificationRequestItem.pspReference,
        livemode: false,
        created_at: ctx.h.clock.now().toISOString(),
        updated_at: ctx.h.clock.now().toISOString(),
      },
    ]);
    expect(await get(`/early-fraud-warnings/${data[0].id}`)).toEqual(data[0]);
    expect((await get(`/payments/${payment.id}/disputes`)).data).toEqual([]);
    expect(ctx.h.events.filter((e) => e.type.startsWith('dispute.'))).toEqual([]);
    expect(warningEvents()).toEqual([['early_fraud_warning.created', 'unauthorized_use_of_card', true]]);
    // A warning debits nothing: refunding it now may head the chargeback off.
    expect((await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/refunds`, {})).status).toBe(201);
  });

  it('when the report names a payment another processor handled, then no warning is recorded on it', async () => {
    const foreign = await ctx.world.capturedOn('checkout');
    const mine = await ctx.world.capturedOn('adyen');
    const report = ctx.standIns.adyen.fraudNotification(ctx.world.referenceOf('adyen', mine));
    const { additionalData: _signed, ...fields } = report.notificationItems[0]!.NotificationRequestItem;
    await ctx.world.deliverAdyen(adyenNotification({ ...fields, merchantReference: foreign.id }, HMAC_KEY));
    expect((await get('/early-fraud-warnings')).data).toEqual([]);
  });
});

describe('Stripe radar.early_fraud_warning.*', () => {
  it('when Stripe reports an early fraud warning and then updates it as no longer actionable, then the warning is created, then updated, each with its event', async () => {
    const payment = await ctx.world.capturedOn('stripe');
    const intent = ctx.world.referenceOf('stripe', payment);
    const id = ctx.standIns.stripe.earlyFraudWarning(intent, 'made_with_lost_card');
    expect(await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!)).toBe(200);
    expect((await get('/early-fraud-warnings')).data.map((w: Json) => [w.processor_reference, w.fraud_type, w.actionable, w.payment_id])).toEqual([
      [id, 'made_with_lost_card', true, payment.id],
    ]);

    const updated = ctx.standIns.stripe.signedEvent('radar.early_fraud_warning.updated', {
      id,
      object: 'radar.early_fraud_warning',
      actionable: false,
      charge: 'ch_x',
      fraud_type: 'made_with_lost_card',
      livemode: false,
      payment_intent: intent,
    });
    expect(await ctx.world.deliverStripe(updated)).toBe(200);
    expect((await get('/early-fraud-warnings')).data.map((w: Json) => w.actionable)).toEqual([false]);
    expect(warningEvents()).toEqual([
      ['early_fraud_warning.created', 'made_with_lost_card', true],
      ['early_fraud_warning.updated', 'made_with_lost_card', false],
    ]);
    expect((await get(`/payments/${payment.id}/disputes`)).data).toEqual([]);
  });
});

describe("the simulator's fraud-warning card", () => {
  it('when a test payment is captured on the simulator with 4000 0000 0000 5423, then it receives an early fraud warning at once, made_with_stolen_card and actionable, and no dispute', async () => {
    const payment = await ctx.h.payOneOff(MERCHANT, '400000******5423');
    await ctx.h.advance(200);
    expect((await get(`/payments/${payment.id}`)).status).toBe('captured');
    expect((await get('/early-fraud-warnings')).data.map((w: Json) => [w.payment_id, w.fraud_type, w.actionable, w.processor_reference])).toEqual([
      [payment.id, 'made_with_stolen_card', true, `sim_efw_${payment.id}`],
    ]);
    expect((await get(`/payments/${payment.id}/disputes`)).data).toEqual([]);
    expect(warningEvents()).toEqual([['early_fraud_warning.created', 'made_with_stolen_card', true]]);
  });
});

describe('GET /early-fraud-warnings', () => {
  it('when warnings of several payments exist, then the list is newest first, pages with a cursor, filters by payment_id, fraud_type and actionable, and another merchant or mode sees none', async () => {
    const first = await ctx.h.payOneOff(MERCHANT, '400000******5423');
    ctx.h.clock.advance(1000);
    const second = await ctx.h.payOneOff(MERCHANT, '400000******5423');
    await ctx.h.advance(200);
    const page = await get('/early-fraud-warnings?limit=1');
    expect([page.data.map((w: Json) => w.payment_id), page.has_more]).toEqual([[second.id], true]);
    expect((await get(`/early-fraud-warnings?limit=1&starting_after=${page.next_cursor}`)).data.map((w: Json) => w.payment_id)).toEqual([first.id]);
    expect((await get(`/early-fraud-warnings?payment_id=${first.id}`)).data.map((w: Json) => w.payment_id)).toEqual([first.id]);
    expect((await get('/early-fraud-warnings?fraud_type=made_with_stolen_card&actionable=true')).data).toHaveLength(2);
    expect((await get('/early-fraud-warnings?fraud_type=misc')).data).toEqual([]);
    expect((await get('/early-fraud-warnings?actionable=false')).data).toEqual([]);
    const id = page.data[0].id;
    expect((await ctx.h.call(OTHER_MERCHANT, 'GET', `/early-fraud-warnings/${id}`)).body.code).toBe('early_fraud_warning_not_found');
    expect((await get('/early-fraud-warnings', OTHER_MERCHANT)).data).toEqual([]);
    expect((await get('/early-fraud-warnings', { ...MERCHANT, mode: 'live' })).data).toEqual([]);
    expect((await ctx.h.call(MERCHANT, 'GET', '/early-fraud-warnings/not-a-uuid')).status).toBe(404);
    for (const [query, field] of [
      ['fraud_type=stolen', 'fraud_type'],
      ['actionable=yes', 'actionable'],
      ['payment_id=x', 'payment_id'],
    ]) {
      const refused = await ctx.h.call(MERCHANT, 'GET', `/early-fraud-warnings?${query}`);
      expect([refused.status, refused.body.code, refused.body.field]).toEqual([422, 'validation_failed', field]);
    }
  });
});
