import { newId } from '@vaultline/core';
import { MemoryDocumentStore, SYSTEM_SCOPE } from '@vaultline/store';
import type { QueueEntry } from '../domain/delivery-queue';
import { notifierCollections, QUEUE } from './collections';
import { moveSystemScopedQueueEntries, QueueRepository } from './queue.repository';

async function setup() {
  const store = new MemoryDocumentStore();
  for (const spec of notifierCollections) await store.register(spec);
  return { store, queue: new QueueRepository(store) };
}

const entry = (merchantId: string, dueAt: number) => ({
  id: newId(),
  message_merchant_id: merchantId,
  mode: 'test' as const,
  endpoint_id: newId(),
  due_at: dueAt,
  claimed: false,
});

describe('the delivery queue', () => {
  it('when entries of two merchants are queued, then each belongs to its merchant and the worker reads the due ones of both, oldest first', async () => {
    const { store, queue } = await setup();
    const first = entry('merchant_a', 100);
    const second = entry('merchant_b', 200);
    const later = entry('merchant_a', 900);
    await store.transaction((uow) => [first, second, later].forEach((e) => queue.insert(uow, e)));

    const due = await queue.listDue(500, { limit: 10 });

    expect(due.items.map((e) => [e.id, e.merchant_id])).toEqual([
      [first.id, 'merchant_a'],
      [second.id, 'merchant_b'],
    ]);
    expect(await queue.get(second.id)).toMatchObject({ merchant_id: 'merchant_b' });
    await store.transaction((uow) => queue.delete(uow, due.items[1]!));
    expect(await queue.get(second.id)).toBeNull();
  });

  it('when the store holds entries an earlier version kept under the system scope, then after the start-up migration they belong to their merchant in test mode and stay due', async () => {
    const { store, queue } = await setup();
    const { mode: _mode, ...withoutMode } = entry('merchant_a', 100);
    const old = { ...withoutMode, merchant_id: SYSTEM_SCOPE };
    await store.transaction((uow) => uow.insert<Omit<QueueEntry, 'mode'>>(QUEUE, old));

    expect(await moveSystemScopedQueueEntries(store)).toBe(1);
    expect(await moveSystemScopedQueueEntries(store)).toBe(0);

    expect((await queue.listDue(500, { limit: 10 })).items).toEqual([{ ...old, merchant_id: 'merchant_a', mode: 'test', version: 1 }]);
  });
});
