import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { importCompletedV1, paymentCapturedV1, paymentFailedV1 } from '@vaultline/contracts';
import { startNotifier, type Harness } from './support/notifier-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { aPayment } from './support/events';
import { expectDocumented } from './support/openapi';

describe('webhook delivery', () => {
  let notifier: Harness;
  let receiver: WebhookReceiver;
  let merchantSeq = 0;
  let merchant: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier({ env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,40,40,40' } });
  });
  afterAll(async () => {
    await receiver.close();
    await notifier.stop();
  });
  beforeEach(() => {
    merchant = `m_delivery_${++merchantSeq}`;
  });

  async function endpointFor(path: string, body: Record<string, unknown> = {}) {
    const created = await notifier.call(merchant, 'POST', '/webhook-endpoints', { url: `${receiver.url}${path}`, ...body });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  }

  it('when a payment is captured, then the endpoint receives a signed Standard Webhooks message the reference verifier accepts', async () => {
    const endpoint = await endpointFor('/captured');
    const eventId = await notifier.publish(paymentCapturedV1, merchant, aPayment({ credential_id: 'cred_9', use_case: 'RECURRING' }));

    const [request] = await waitFor(() => (receiver.at('/captured').length === 1 ? receiver.at('/captured') : null));
    const payload = new Webhook(endpoint.secret).verify(request!.body, request!.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe('payment.captured');
    expect(payload.data).toMatchObject({
      payment_id: 'pay_0001',
      status: 'captured',
      use_case: 'RECURRING',
      credential_id: 'cred_9',
      reference: 'order-42',
      masked_account_number: '424242******4242',
    });
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);

    const deliveries = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
      expectDocumented('GET', '/webhook-endpoints/{endpoint_id}/deliveries', list);
      return list.body.data[0]?.status === 'succeeded' ? list.body.data : null;
    });
    expect(deliveries[0]).toMatchObject({ id: request!.headers['webhook-id'], event_id: eventId, event_type: 'payment.captured', attempt_count: 1 });
    expect(deliveries[0].attempts[0]).toMatchObject({ status_code: 204, error: null, trigger: 'scheduled' });
    expect(typeof deliveries[0].attempts[0].duration_ms).toBe('number');
  });

  it('when the endpoint subscribes to some types only, then other types are not sent to it', async () => {
    const endpoint = await endpointFor('/filtered', { events: ['import.completed'] });
    await notifier.publish(paymentFailedV1, merchant, aPayment({ status: 'failed', failure_reason: 'declined' }));
    await notifier.publish(importCompletedV1, merchant, {
      import_id: 'imp_1',
      provider: 'provider_a',
      state: 'finished',
      counts: { total: 3, imported: 2, updated: 1, failed: 0 },
      finished_at: new Date().toISOString(),
    });
    await waitFor(() => receiver.at('/filtered').length === 1);
    // Messages are created in the same commit as the event log entry: once both events are logged,
    // a message for the payment would exist.
    await waitFor(async () => (await notifier.call(merchant, 'GET', '/events')).body.data.length === 2);
    const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(list.body.data.map((d: { event_type: string }) => d.event_type)).toEqual(['import.completed']);
    expect(receiver.at('/filtered').map((r) => JSON.parse(r.body).type)).toEqual(['import.completed']);
  });

  it('when the receiver fails the first two attempts, then the third delivers the event with the same webhook-id, and it dedupes to one', async () => {
    receiver.on('/flaky', (_req, n) => ({ status: n <= 2 ? 500 : 200 }));
    const endpoint = await endpointFor('/flaky');
    await notifier.publish(paymentCapturedV1, merchant, aPayment());

    await waitFor(() => receiver.at('/flaky').length === 3);
    const ids = receiver.at('/flaky').map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const bodies = new Set(receiver.at('/flaky').map((r) => r.body));
    expect(bodies.size).toBe(1);
    for (const r of receiver.at('/flaky')) expect(() => new Webhook(endpoint.secret).verify(r.body, r.headers)).not.toThrow();

    const delivery = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
      return list.body.data[0]?.status === 'succeeded' ? list.body.data[0] : null;
    });
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].error).toBe('http_500');
  });

  it('when every attempt fails, then after the last one the delivery is failed and visible with each attempt', async () => {
    receiver.on('/dead', () => ({ status: 502 }));
    const endpoint = await endpointFor('/dead');
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const delivery = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=failed`);
      return list.body.data[0] ?? null;
    });
    expect(delivery).toMatchObject({ status: 'failed', failure_reason: 'retries_exhausted', attempt_count: 4, next_attempt_at: null });
    expect(receiver.at('/dead')).toHaveLength(4);
  });

  it('when the receiver answers 410 Gone, then the endpoint is disabled and nothing more is sent to it', async () => {
    receiver.on('/gone', () => ({ status: 410 }));
    const endpoint = await endpointFor('/gone');
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const disabled = await waitFor(async () => {
      const got = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}`);
      return got.body.enabled === false ? got.body : null;
    });
    expect(disabled.disabled_reason).toBe('gone');
    await notifier.publish(paymentCapturedV1, merchant, aPayment({ payment_id: 'pay_2' }));
    await waitFor(async () => (await notifier.call(merchant, 'GET', '/events?type=payment.captured')).body.data.length === 2);
    const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ status: 'failed', failure_reason: 'endpoint_gone' });
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('when the receiver redirects, then the redirect is a failed attempt and its target is never called', async () => {
    receiver.on('/redirect', () => ({ status: 302, headers: { location: `${receiver.url}/redirect-target` } }));
    const endpoint = await endpointFor('/redirect');
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const delivery = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=failed`);
      return list.body.data[0] ?? null;
    });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 302, error: 'http_302_redirect_not_followed' });
    expect(receiver.at('/redirect-target')).toHaveLength(0);
  });

  it.each([429, 503])(
    'when the receiver answers %i with Retry-After: 1, then the next attempt waits about a second instead of the 40 ms schedule',
    async (status) => {
      receiver.on(`/throttle-${status}`, (_req, n) => (n === 1 ? { status, headers: { 'retry-after': '1' } } : { status: 200 }));
      await endpointFor(`/throttle-${status}`);
      await notifier.publish(paymentCapturedV1, merchant, aPayment());
      const [first, second] = await waitFor(() => (receiver.at(`/throttle-${status}`).length === 2 ? receiver.at(`/throttle-${status}`) : null), 5_000);
      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    },
  );

  it('when a delivery is replayed, then the receiver gets the same webhook-id and body again, logged as a replay attempt', async () => {
    const endpoint = await endpointFor('/replay');
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    await waitFor(() => receiver.at('/replay').length === 1);
    const delivery = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=succeeded`);
      return list.body.data[0] ?? null;
    });

    const replay = await notifier.call(merchant, 'POST', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`);
    expect(replay.status).toBe(202);
    expectDocumented('POST', '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', replay);
    await waitFor(() => receiver.at('/replay').length === 2);
    const [original, again] = receiver.at('/replay');
    expect(again!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(again!.body).toBe(original!.body);
    const after = await waitFor(async () => {
      const got = await notifier.call(merchant, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`);
      expectDocumented('GET', '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}', got);
      return got.body.attempt_count === 2 && got.body.status === 'succeeded' ? got.body : null;
    });
    expect(after.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['scheduled', 'replay']);
    const foreign = await notifier.call('m_someone_else', 'POST', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`);
    expect(foreign.status).toBe(404);
  });

  it('when the secret is rotated, then messages carry both signatures: the old secret verifies during the grace period, and the new one too', async () => {
    const endpoint = await endpointFor('/rotated');
    const rotated = await notifier.call(merchant, 'POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const [request] = await waitFor(() => (receiver.at('/rotated').length === 1 ? receiver.at('/rotated') : null));
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(request!.body, request!.headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(request!.body, request!.headers)).not.toThrow();
  });

  it('when the secret is rotated without a grace period, then only the new secret signs and the old one no longer verifies', async () => {
    const endpoint = await endpointFor('/rotated-now');
    const rotated = await notifier.call(merchant, 'POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, { grace_period_seconds: 0 });
    expect(rotated.body.previous_secret_expires_at).toBeNull();
    await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const [request] = await waitFor(() => (receiver.at('/rotated-now').length === 1 ? receiver.at('/rotated-now') : null));
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(endpoint.secret).verify(request!.body, request!.headers)).toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(request!.body, request!.headers)).not.toThrow();
  });
});
