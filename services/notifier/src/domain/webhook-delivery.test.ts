import { ManualClock } from '@vaultline/core';
import { MemoryDocumentStore, type UnitOfWork } from '@vaultline/store';
import { notifierCollections } from '../data/collections';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { StoreEndpointRepository } from '../data/endpoint.repository';
import { StoreEventRepository } from '../data/event.repository';
import { StoreMessageRepository } from '../data/message.repository';
import { QueueRepository } from '../data/queue.repository';
import type { TransportResult } from './delivery-outcome';
import type { OutgoingWebhook, TransactionRunner } from './ports';
import { recordMerchantEvent } from './record-merchant-event';
import { attemptDelivery, claimDeliveries } from './webhook-delivery';
import { endpointSecretContext } from './webhook-endpoint';
import { generateWebhookSecret } from './webhook-signature';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup() {
  const store = new MemoryDocumentStore();
  for (const spec of notifierCollections) await store.register(spec);
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const sealer = new AesGcmSecretSealer(Buffer.alloc(32, 1));
  const endpoints = new StoreEndpointRepository(store);
  const messages = new StoreMessageRepository(store);
  const queue = new QueueRepository(store);
  const sent: OutgoingWebhook[] = [];
  const transport = {
    send: async (request: OutgoingWebhook): Promise<TransportResult> => (sent.push(request), { kind: 'response', status: 200, headers: {} }),
  };
  const now = clock.now().toISOString();
  await store.transaction((uow: UnitOfWork) =>
    endpoints.insert(uow, {
      id: 'ep_1',
      merchant_id: 'm1',
      mode: 'test',
      url: 'https://hooks.example/1',
      events: [],
      description: null,
      enabled: true,
      disabled_reason: null,
      secrets: [{ sealed: sealer.seal(generateWebhookSecret(), endpointSecretContext('ep_1')), created_at: now, expires_at: null }],
      created_at: now,
      updated_at: now,
    }),
  );
  await store.transaction((uow: UnitOfWork) =>
    recordMerchantEvent({
      endpoints,
      events: new StoreEventRepository(store),
      appendToFeed: () => undefined,
      messages,
      queue,
      clock,
      firstAttemptDelayMs: 0,
      maxEndpointsPerMerchant: 10,
    })(uow, { id: 'evt_1', type: 'token.deleted', version: 1, occurred_at: now, merchant_id: 'm1', livemode: false, data: { token_id: 't1' } }),
  );
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const worker = () => ({
    claim: claimDeliveries({ queue, transaction, clock, leaseMs: 60_000 }),
    attempt: attemptDelivery({
      endpoints,
      messages,
      queue,
      transaction,
      sealer,
      transport,
      clock,
      policy: { scheduleMs: [0, 1_000], jitter: 0 },
      logger: silent,
    }),
  });
  return { clock, queue, messages, sent, worker };
}

describe('claims on queue entries (a worker that dies mid-attempt)', () => {
  it('when a worker claims an entry and dies, then nobody else takes it during the lease, and another worker delivers it after the lease', async () => {
    const { clock, queue, messages, sent, worker } = await setup();
    const [due] = (await queue.listDue(clock.now().getTime(), { limit: 10 })).items;
    const [claimedByDeadWorker] = await worker().claim([due!]);
    expect(claimedByDeadWorker?.claimed).toBe(true);

    clock.advance(59_000);
    expect((await queue.listDue(clock.now().getTime(), { limit: 10 })).items).toHaveLength(0);

    clock.advance(2_000);
    const [lapsed] = (await queue.listDue(clock.now().getTime(), { limit: 10 })).items;
    expect(lapsed?.id).toBe(due!.id);
    const other = worker();
    const [reclaimed] = await other.claim([lapsed!]);
    const result = await other.attempt(reclaimed!);
    expect(result.message?.status).toBe('succeeded');
    expect(sent).toHaveLength(1);
    expect(await queue.get(due!.id)).toBeNull();

    // The first worker wakes up late: its claim no longer holds, so it sends nothing and changes nothing.
    const late = await worker().attempt(claimedByDeadWorker!);
    expect(late.message).toBeNull();
    expect(sent).toHaveLength(1);
    expect((await messages.get({ merchantId: 'm1', mode: 'test' }, due!.id))?.attempt_count).toBe(1);
  });

  it('when two workers claim the same due entry, then only one claim succeeds', async () => {
    const { clock, queue, worker } = await setup();
    const [due] = (await queue.listDue(clock.now().getTime(), { limit: 10 })).items;
    const first = await worker().claim([due!]);
    const second = await worker().claim([due!]);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(0);
  });
});
