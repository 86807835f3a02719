import { ManualClock } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import type { QueueEntry } from './delivery-queue';
import { DeliveryScheduler } from './delivery-scheduler';
import type { AttemptResult } from './webhook-delivery';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

function entry(id: string): QueueEntry {
  return { id, merchant_id: 'm1', message_merchant_id: 'm1', mode: 'test', endpoint_id: 'ep_1', due_at: 0, claimed: false, version: 1 };
}

/** A scheduler over an in-memory queue whose attempts finish when the test says so. */
function setup(queued: QueueEntry[]) {
  const queue = new Map(queued.map((e) => [e.id, e]));
  const scans: number[] = [];
  const finishers = new Map<string, () => void>();
  const attempted: string[] = [];
  const scheduler = new DeliveryScheduler({
    listDue: async (_now: number, page: PageRequest): Promise<Page<QueueEntry>> => {
      const due = [...queue.values()].filter((e) => !e.claimed).slice(0, page.limit);
      scans.push(due.length);
      return { items: due, has_more: false };
    },
    delivery: {
      claim: async (due) => due.map((e) => (queue.set(e.id, { ...e, claimed: true }), { ...e, claimed: true })),
      attempt: (claimed) =>
        new Promise<AttemptResult>((resolve) => {
          attempted.push(claimed.id);
          finishers.set(claimed.id, () => {
            queue.delete(claimed.id);
            resolve({ message: null, nextAttemptAt: null });
          });
        }),
    },
    clock: new ManualClock('2026-01-01T00:00:00.000Z'),
    logger: silent,
    maxInFlight: 100,
    maxInFlightPerEndpoint: 2,
    pollIntervalMs: 60_000,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  const finish = async (id: string) => {
    finishers.get(id)?.();
    await settle();
  };
  return { scheduler, scans, attempted, finish, settle };
}

describe('DeliveryScheduler', () => {
  it('when offered entries outnumber the endpoint slots, then the rest are attempted in order as slots free up, without reading the queue again', async () => {
    const entries = ['a', 'b', 'c', 'd', 'e'].map(entry);
    const { scheduler, scans, attempted, finish, settle } = setup(entries);
    scheduler.start();
    await settle();
    const scansAtStart = scans.length;
    scheduler.offer(entries);
    await settle();
    expect(attempted).toEqual(['a', 'b']);

    await finish('a');
    await finish('b');
    await finish('c');

    expect(attempted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(scans.length).toBe(scansAtStart);
    for (const id of ['d', 'e']) await finish(id);
    await scheduler.stop();
  });

  it('when a scan finds more due entries than the endpoint slots, then the rest wait for a free slot and are attempted without another scan', async () => {
    const entries = ['a', 'b', 'c', 'd'].map(entry);
    const { scheduler, scans, attempted, finish, settle } = setup(entries);
    scheduler.start();
    await settle();
    expect(attempted).toEqual(['a', 'b']);
    expect(scans).toEqual([4]);

    await finish('a');
    await finish('b');

    expect(attempted).toEqual(['a', 'b', 'c', 'd']);
    expect(scans).toEqual([4]);
    for (const id of ['c', 'd']) await finish(id);
    await scheduler.stop();
  });
});
