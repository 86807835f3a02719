import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { paymentCapturedV1 } from '@vaultline/contracts';
import { startNotifier, type Harness } from './support/notifier-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { aPayment } from './support/events';
import { expectDocumented } from './support/openapi';

/** Issue 36: the dashboard's "Send a test event" and its Events page (an event's payload and where it went). */
describe("test events and an event's deliveries", () => {
  let notifier: Harness;
  let receiver: WebhookReceiver;
  let seq = 0;
  let merchant: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier({ env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,40,40' } });
  });
  afterAll(async () => {
    await receiver.close();
    await notifier.stop();
  });
  beforeEach(() => {
    merchant = `m_test_events_${++seq}`;
  });

  const endpointFor = async (path: string, body: Record<string, unknown> = {}) => {
    const created = await notifier.call(merchant, 'POST', '/webhook-endpoints', { url: `${receiver.url}${path}`, ...body });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  };

  it('when a test event is sent to an endpoint subscribed to other types, then it alone receives a signed webhook_endpoint.test, and the event log and its deliveries show it', async () => {
    const endpoint = await endpointFor('/tested', { events: ['refund.succeeded'] });
    const other = await endpointFor('/other');
    const sent = await notifier.call(merchant, 'POST', `/webhook-endpoints/${endpoint.id}/test-events`);
    expectDocumented('POST', '/webhook-endpoints/{endpoint_id}/test-events', sent);
    expect(sent.body).toMatchObject({ status: 'pending', endpoint_id: endpoint.id, event_type: 'webhook_endpoint.test' });

    const [request] = await waitFor(() => (receiver.at('/tested').length === 1 ? receiver.at('/tested') : null));
    const payload = new Webhook(endpoint.secret).verify(request!.body, request!.headers) as { type: string; livemode: boolean; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: 'webhook_endpoint.test', livemode: false, data: { endpoint_id: endpoint.id } });
    expect(request!.headers['webhook-id']).toBe(sent.body.id);
    expect(receiver.at('/other')).toEqual([]);

    const event = await notifier.call(merchant, 'GET', `/events/${sent.body.event_id as string}`);
    expectDocumented('GET', '/events/{event_id}', event);
    expect(event.body).toMatchObject({ type: 'webhook_endpoint.test', data: { endpoint_id: endpoint.id } });
    const deliveries = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/events/${sent.body.event_id as string}/deliveries`);
      return list.body.data?.[0]?.status === 'succeeded' ? list : null;
    });
    expectDocumented('GET', '/events/{event_id}/deliveries', deliveries);
    expect(deliveries.body.data.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([endpoint.id]);
    expect(other.id).not.toBe(endpoint.id);
  });

  it("when an event went to two endpoints, then its deliveries list both with their attempts; an unknown event or another merchant's answers 404", async () => {
    const first = await endpointFor('/first');
    const second = await endpointFor('/second');
    const eventId = await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const deliveries = await waitFor(async () => {
      const list = await notifier.call(merchant, 'GET', `/events/${eventId}/deliveries`);
      return list.status === 200 && list.body.data.length === 2 && list.body.data.every((d: { status: string }) => d.status === 'succeeded')
        ? list.body.data
        : null;
    });
    expect(deliveries.map((d: { endpoint_id: string }) => d.endpoint_id).sort()).toEqual([first.id, second.id].sort());
    expect(deliveries[0].attempts[0]).toMatchObject({ status_code: 204 });
    expect((await notifier.call('m_someone_else', 'GET', `/events/${eventId}/deliveries`)).status).toBe(404);
  });

  it('when the endpoint is disabled, then no test event is sent (409 webhook_endpoint_disabled)', async () => {
    const endpoint = await endpointFor('/disabled');
    await notifier.call(merchant, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const refused = await notifier.call(merchant, 'POST', `/webhook-endpoints/${endpoint.id}/test-events`);
    expect([refused.status, refused.body.code]).toEqual([409, 'webhook_endpoint_disabled']);
  });
});
