import { waitFor } from '@vaultline/core';
import { checkoutSessionCompletedV1, paymentCapturedV1, tokenCreatedV1, tokenDetokenizedV1 } from '@vaultline/contracts';
import { MESSAGES } from '../src/data/collections';
import { startNotifier, type Harness } from './support/notifier-harness';
import { aPayment } from './support/events';
import { WebhookReceiver } from './support/webhook-receiver';
import { expectDocumented } from './support/openapi';

describe('merchant event log', () => {
  let notifier: Harness;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier();
  });
  afterAll(async () => {
    await receiver.close();
    await notifier.stop();
  });

  it('when events happen, then GET /events lists them newest first like Stripe, filters by type and pages with a cursor', async () => {
    const m = 'm_log_1';
    const tokenEvent = await notifier.publish(tokenCreatedV1, m, {
      token_id: 'tok_1',
      business_key: null,
      scheme: 'VISA',
      fingerprint: 'fp_hmac_value',
      source: 'api',
      updated: false,
      correlation_id: null,
    });
    await waitFor(async () => (await notifier.call(m, 'GET', '/events')).body.data.length === 1);
    const paymentEvent = await notifier.publish(paymentCapturedV1, m, aPayment());
    await waitFor(async () => (await notifier.call(m, 'GET', '/events')).body.data.length === 2);
    await notifier.publish(checkoutSessionCompletedV1, m, {
      session_id: 'cs_1',
      payment_id: 'pay_0001',
      token_id: 'tok_1',
      card: {
        masked_account_number: '424242******4242',
        scheme: 'VISA',
        expiry_month: 12,
        expiry_year: 2030,
        cardholder_name: null,
        submitted_at: '2026-11-23T10:00:00.000Z',
      },
    });
    await waitFor(async () => (await notifier.call(m, 'GET', '/events')).body.data.length === 3);

    const all = await notifier.call(m, 'GET', '/events');
    expectDocumented('GET', '/events', all);
    expect(all.body.data.map((e: { type: string }) => e.type)).toEqual(['checkout.session.completed', 'payment.captured', 'token.created']);
    const token = all.body.data[2];
    expect(token).toEqual({
      id: tokenEvent,
      object: 'event',
      type: 'token.created',
      livemode: false,
      created_at: expect.any(String),
      data: { token_id: 'tok_1', business_key: null, scheme: 'VISA', source: 'api', updated: false, correlation_id: null },
    });

    const payments = await notifier.call(m, 'GET', '/events?type=payment.captured');
    expect(payments.body.data.map((e: { id: string }) => e.id)).toEqual([paymentEvent]);

    const first = await notifier.call(m, 'GET', '/events?limit=2');
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const second = await notifier.call(m, 'GET', `/events?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([tokenEvent]);

    const one = await notifier.call(m, 'GET', `/events/${paymentEvent}`);
    expectDocumented('GET', '/events/{event_id}', one);
    expect(one.body).toMatchObject({ id: paymentEvent, type: 'payment.captured', data: { payment_id: 'pay_0001' } });
    expect((await notifier.call('m_log_other', 'GET', `/events/${paymentEvent}`)).status).toBe(404);
    expect((await notifier.call('m_log_other', 'GET', '/events')).body.data).toEqual([]);
  });

  it('when the same event is delivered twice by the bus, then it is logged once and sent to the endpoint once', async () => {
    const m = 'm_log_2';
    await notifier.call(m, 'POST', '/webhook-endpoints', { url: `${receiver.url}/twice` });
    const id = await notifier.publish(paymentCapturedV1, m, aPayment());
    await notifier.publish(paymentCapturedV1, m, aPayment(), id);
    const other = await notifier.publish(paymentCapturedV1, m, aPayment({ payment_id: 'pay_after' }));
    await waitFor(async () => (await notifier.call(m, 'GET', `/events/${other}`)).status === 200);
    await waitFor(() => receiver.at('/twice').length === 2);
    expect((await notifier.call(m, 'GET', '/events')).body.data).toHaveLength(2);
    expect(await notifier.store.collection(MESSAGES).count({ merchantId: m, mode: 'test' }, {})).toBe(2);
  });

  it('when an internal event such as token.detokenized happens, then merchants do not see it', async () => {
    const m = 'm_log_3';
    await notifier.publish(tokenDetokenizedV1, m, { token_id: 'tok_1', caller: 'forwarder', purpose: 'forward', audit_id: 'aud_1' });
    const marker = await notifier.publish(tokenCreatedV1, m, {
      token_id: 'tok_2',
      business_key: null,
      scheme: 'VISA',
      fingerprint: 'fp',
      source: 'api',
      updated: false,
      correlation_id: null,
    });
    await waitFor(async () => (await notifier.call(m, 'GET', `/events/${marker}`)).status === 200);
    expect((await notifier.call(m, 'GET', '/events')).body.data.map((e: { type: string }) => e.type)).toEqual(['token.created']);
  });
});
