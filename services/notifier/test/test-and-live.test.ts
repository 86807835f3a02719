import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { openBus } from '@vaultline/bus';
import { paymentCapturedV1, tokenDeletedV1 } from '@vaultline/contracts';
import { sleep, waitFor, type Scope } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import { insertWrittenBeforeModes } from '@vaultline/store/testing';
import { ENDPOINTS, EVENTS, MESSAGES, QUEUE } from '../src/data/collections';
import { startNotifier, type Harness } from './support/notifier-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { aPayment } from './support/events';
import { expectDocumented } from './support/openapi';

const testKey = (merchantId: string): Scope => ({ merchantId, mode: 'test' });
const liveKey = (merchantId: string): Scope => ({ merchantId, mode: 'live' });

describe('test and live webhooks: an endpoint receives only the events of the mode of the key that registered it', () => {
  let notifier: Harness;
  let receiver: WebhookReceiver;
  let merchantSeq = 0;
  let test: Scope;
  let live: Scope;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier();
  });
  afterAll(async () => {
    await receiver.close();
    await notifier.stop();
  });
  beforeEach(() => {
    const merchant = `m_modes_${++merchantSeq}`;
    test = testKey(merchant);
    live = liveKey(merchant);
  });

  async function endpointFor(key: Scope, path: string) {
    const created = await notifier.call(key, 'POST', '/webhook-endpoints', { url: `${receiver.url}${path}` });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string; livemode: boolean };
  }

  /** Waits until the endpoint's delivery of the event has succeeded; returns it. */
  async function succeededDelivery(key: Scope, endpointId: string) {
    return waitFor(async () => {
      const list = await notifier.call(key, 'GET', `/webhook-endpoints/${endpointId}/deliveries?status=succeeded`);
      return list.body.data[0] ?? null;
    });
  }

  it('when a merchant registers a test and a live endpoint, then a test event reaches only the test one and a live event only the live one, each body saying its livemode', async () => {
    const testEndpoint = await endpointFor(test, '/modes-test');
    const liveEndpoint = await endpointFor(live, '/modes-live');
    expect([testEndpoint.livemode, liveEndpoint.livemode]).toEqual([false, true]);

    const liveEvent = await notifier.publish(paymentCapturedV1, live, aPayment({ payment_id: 'pay_live' }));
    const testEvent = await notifier.publish(paymentCapturedV1, test, aPayment({ payment_id: 'pay_test' }));
    await succeededDelivery(test, testEndpoint.id);
    await succeededDelivery(live, liveEndpoint.id);

    const [toTest, toLive] = [receiver.at('/modes-test'), receiver.at('/modes-live')];
    expect(toTest).toHaveLength(1);
    expect(toLive).toHaveLength(1);
    expect(new Webhook(testEndpoint.secret).verify(toTest[0]!.body, toTest[0]!.headers)).toMatchObject({ livemode: false, data: { payment_id: 'pay_test' } });
    expect(new Webhook(liveEndpoint.secret).verify(toLive[0]!.body, toLive[0]!.headers)).toMatchObject({ livemode: true, data: { payment_id: 'pay_live' } });

    const testDeliveries = await notifier.call(test, 'GET', `/webhook-endpoints/${testEndpoint.id}/deliveries`);
    expect(testDeliveries.body.data.map((d: { event_id: string; livemode: boolean }) => [d.event_id, d.livemode])).toEqual([[testEvent, false]]);
    expectDocumented('GET', '/webhook-endpoints/{endpoint_id}/deliveries', testDeliveries);
    const liveDeliveries = await notifier.call(live, 'GET', `/webhook-endpoints/${liveEndpoint.id}/deliveries`);
    expect(liveDeliveries.body.data.map((d: { event_id: string; livemode: boolean }) => [d.event_id, d.livemode])).toEqual([[liveEvent, true]]);
  });

  it("when each key lists endpoints and events, then it sees only its own mode's, with their livemode", async () => {
    const testEndpoint = await endpointFor(test, '/lists-test');
    const liveEndpoint = await endpointFor(live, '/lists-live');
    const testEvent = await notifier.publish(tokenDeletedV1, test, { token_id: 'tok_test' });
    const liveEvent = await notifier.publish(tokenDeletedV1, live, { token_id: 'tok_live' });
    await waitFor(async () => (await notifier.call(test, 'GET', `/events/${testEvent}`)).status === 200);
    await waitFor(async () => (await notifier.call(live, 'GET', `/events/${liveEvent}`)).status === 200);

    const liveEvents = await notifier.call(live, 'GET', '/events');
    expectDocumented('GET', '/events', liveEvents);
    expect(liveEvents.body.data.map((e: { id: string; livemode: boolean }) => [e.id, e.livemode])).toEqual([[liveEvent, true]]);
    expect((await notifier.call(test, 'GET', '/events')).body.data.map((e: { id: string; livemode: boolean }) => [e.id, e.livemode])).toEqual([
      [testEvent, false],
    ]);
    const liveEndpoints = await notifier.call(live, 'GET', '/webhook-endpoints');
    expectDocumented('GET', '/webhook-endpoints', liveEndpoints);
    expect(liveEndpoints.body.data.map((e: { id: string; livemode: boolean }) => [e.id, e.livemode])).toEqual([[liveEndpoint.id, true]]);
    expect((await notifier.call(test, 'GET', '/webhook-endpoints')).body.data.map((e: { id: string }) => e.id)).toEqual([testEndpoint.id]);
  });

  it.each([
    ['a live key', 'test', 'live'],
    ['a test key', 'live', 'test'],
  ] as const)(
    "when %s reaches for the other mode's endpoint, delivery and event, then every route answers 404 as for another merchant's, and nothing changes",
    async (_name, ownerMode, otherMode) => {
      const owner = ownerMode === 'test' ? test : live;
      const other = otherMode === 'test' ? test : live;
      const endpoint = await endpointFor(owner, `/probe-${ownerMode}`);
      const eventId = await notifier.publish(paymentCapturedV1, owner, aPayment());
      const delivery = await succeededDelivery(owner, endpoint.id);
      const before = (await notifier.call(owner, 'GET', `/webhook-endpoints/${endpoint.id}`)).body;

      const probes: Array<[string, string, unknown?]> = [
        ['GET', `/webhook-endpoints/${endpoint.id}`],
        ['PATCH', `/webhook-endpoints/${endpoint.id}`, { url: `${receiver.url}/hijacked`, enabled: false }],
        ['POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, {}],
        ['GET', `/webhook-endpoints/${endpoint.id}/deliveries`],
        ['GET', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`],
        ['POST', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`],
        ['GET', `/events/${eventId}`],
        ['DELETE', `/webhook-endpoints/${endpoint.id}`],
      ];
      for (const [method, path, body] of probes) {
        const answer = await notifier.call(other, method, path, body);
        expect([method, path, answer.status]).toEqual([method, path, 404]);
        expect(answer.body.code).toMatch(/_not_found$/);
      }

      expect((await notifier.call(owner, 'GET', `/webhook-endpoints/${endpoint.id}`)).body).toEqual(before);
      const stored = await notifier.store.collection<StoredDocument & { secrets: unknown[] }>(ENDPOINTS).get(owner, endpoint.id);
      expect(stored).toMatchObject({ version: 1, mode: ownerMode });
      expect(stored?.secrets).toHaveLength(1);
      expect((await notifier.call(other, 'GET', '/webhook-endpoints')).body.data).toEqual([]);
      expect((await notifier.call(other, 'GET', '/events')).body.data).toEqual([]);
    },
  );

  it('when a live key replays a test delivery, then it answers 404 and nothing is sent again', async () => {
    const endpoint = await endpointFor(test, '/replay-guarded');
    await notifier.publish(paymentCapturedV1, test, aPayment());
    const delivery = await succeededDelivery(test, endpoint.id);

    const replay = await notifier.call(live, 'POST', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/replay`);

    expect(replay.status).toBe(404);
    expectDocumented('POST', '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', replay);
    // A replay would have queued the message again: the queue holds nothing for it, and the message is as it was.
    expect(await notifier.store.collection(QUEUE).getGlobal(delivery.id)).toBeNull();
    expect(await notifier.store.collection(MESSAGES).get(test, delivery.id)).toMatchObject({ status: 'succeeded', attempt_count: 1, replayed: false });
    await sleep(300); // three polls of the delivery worker
    expect(receiver.at('/replay-guarded')).toHaveLength(1);
  });
});

/** Rewrites every merchant document of the collection as versions before modes stored it: without mode. */
async function forgetModes(store: DocumentStore, collection: string): Promise<number> {
  const { items } = await store.collection<StoredDocument>(collection).listAcrossMerchants({}, { limit: 100 });
  const merchantDocs = items.filter((doc) => doc.merchant_id !== SYSTEM_SCOPE);
  await store.transaction((uow) => merchantDocs.forEach((doc) => uow.delete(collection, { merchantId: doc.merchant_id, mode: doc.mode ?? 'test' }, doc.id)));
  await insertWrittenBeforeModes(
    store,
    collection,
    merchantDocs.map(({ version: _version, mode: _mode, ...doc }) => doc),
  );
  return merchantDocs.length;
}

describe('a data directory written before modes (start-up migration)', () => {
  it('when the notifier starts on it, then its endpoints, events and deliveries are test-mode ones: the test key sees and uses them, a live key does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notifier-modes-'));
    const storeFile = join(dir, 'notifier.db');
    const bus = await openBus('memory://');
    const receiver = await WebhookReceiver.start();
    const merchant = 'm_before_modes';
    try {
      const before = await startNotifier({ storeFile, bus });
      const created = await before.call(merchant, 'POST', '/webhook-endpoints', { url: `${receiver.url}/old` });
      const oldEvent = await before.publish(paymentCapturedV1, merchant, aPayment());
      await waitFor(() => receiver.at('/old').length === 1);
      await waitFor(
        async () => (await before.call(merchant, 'GET', `/webhook-endpoints/${created.body.id}/deliveries?status=succeeded`)).body.data.length === 1,
      );
      const forgotten = [];
      for (const collection of [ENDPOINTS, EVENTS, MESSAGES]) forgotten.push(await forgetModes(before.store, collection));
      expect(forgotten).toEqual([1, 1, 1]);
      expect((await before.store.collection(ENDPOINTS).listAcrossMerchants({ mode: null }, { limit: 10 })).items).toHaveLength(1);
      await before.stop({ keepBus: true });

      const after = await startNotifier({ storeFile, bus });
      try {
        for (const collection of [ENDPOINTS, EVENTS, MESSAGES]) {
          expect((await after.store.collection(collection).listAcrossMerchants({ mode: null }, { limit: 10 })).items).toEqual([]);
        }
        const endpoint = await after.call(testKey(merchant), 'GET', `/webhook-endpoints/${created.body.id}`);
        expect(endpoint.body).toMatchObject({ id: created.body.id, livemode: false, enabled: true });
        expect((await after.call(testKey(merchant), 'GET', `/events/${oldEvent}`)).body).toMatchObject({ livemode: false });
        expect((await after.call(testKey(merchant), 'GET', `/webhook-endpoints/${created.body.id}/deliveries`)).body.data).toHaveLength(1);
        expect((await after.call(liveKey(merchant), 'GET', `/webhook-endpoints/${created.body.id}`)).status).toBe(404);

        await after.publish(paymentCapturedV1, liveKey(merchant), aPayment({ payment_id: 'pay_live' }));
        await after.publish(paymentCapturedV1, testKey(merchant), aPayment({ payment_id: 'pay_test' }));
        await waitFor(() => receiver.at('/old').length === 2);
        expect(JSON.parse(receiver.at('/old')[1]!.body)).toMatchObject({ livemode: false, data: { payment_id: 'pay_test' } });
        await waitFor(async () => (await after.call(liveKey(merchant), 'GET', '/events')).body.data.length === 1);
        await sleep(300);
        expect(receiver.at('/old')).toHaveLength(2);
      } finally {
        await after.stop({ keepBus: true });
      }
    } finally {
      await receiver.close();
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
