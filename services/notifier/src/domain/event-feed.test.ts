import { ManualClock, newId, type Scope } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { notifierCollections } from '../data/collections';
import { StoreEventRepository } from '../data/event.repository';
import { StoreFeedRepository } from '../data/feed.repository';
import { appendToFeed, pollEvents, RecordingsInFlight } from './event-feed';

const scope: Scope = { merchantId: 'm_feed', mode: 'test' };

describe('the event feed while recordings are in flight', () => {
  const clock = new ManualClock(new Date('2026-11-28T10:00:00.000Z'));
  let store: MemoryDocumentStore;
  let inFlight: RecordingsInFlight;
  let poll: ReturnType<typeof pollEvents>;
  let append: ReturnType<typeof appendToFeed>;
  const events = () => new StoreEventRepository(store);

  beforeEach(async () => {
    store = new MemoryDocumentStore();
    for (const spec of notifierCollections) await store.register(spec);
    inFlight = new RecordingsInFlight(clock, 30_000);
    const feed = new StoreFeedRepository(store);
    poll = pollEvents({ feed, events: events(), inFlight, clock, recheckMs: 50 });
    append = appendToFeed({ feed, inFlight });
  });

  /** Records one event, holding its unit of work open until `release` resolves. */
  const record = (type: string, release: Promise<void> = Promise.resolve()) => {
    const id = newId();
    const committed = store.transaction(async (uow) => {
      const logged = events().insert(uow, { id, merchant_id: scope.merchantId, mode: scope.mode, type, created_at: clock.now().toISOString(), data: {} });
      append(uow, logged);
      await release;
    });
    return { id, committed };
  };

  it('when a later recording commits before an earlier one, then a reader does not pass the earlier one until it committed, and then gets both in recording order', async () => {
    let releaseFirst!: () => void;
    const first = record('payment.captured', new Promise<void>((resolve) => (releaseFirst = resolve)));
    const second = record('refund.created');
    await second.committed;

    expect((await poll(scope, { limit: 10, waitMs: 0 })).events).toEqual([]);

    const waiting = poll(scope, { limit: 10, waitMs: 10_000 });
    releaseFirst();
    await first.committed;
    const answer = await waiting;
    expect(answer.events.map((event) => event.id)).toEqual([first.id, second.id]);
    expect(answer.lastEventId).toBe(second.id);
  });

  it('when recordings begin after a reader looked at what is in flight and one of them commits before its read, then the reader does not answer it past the other', async () => {
    let releaseEarlier!: () => void;
    let earlier: ReturnType<typeof record> | undefined;
    let later: ReturnType<typeof record> | undefined;
    const feed = new StoreFeedRepository(store);
    // Between the reader's look at the recordings in flight and its read: X begins and stays open, then R
    // begins after X and commits. R's position is above X's, and the read sees R only.
    const racingFeed = {
      findByEvent: feed.findByEvent.bind(feed),
      listAfter: async (...args: Parameters<StoreFeedRepository['listAfter']>) => {
        if (!earlier) {
          earlier = record('payment.captured', new Promise<void>((resolve) => (releaseEarlier = resolve)));
          later = record('refund.created');
          await later.committed;
        }
        return feed.listAfter(...args);
      },
    };
    const racingPoll = pollEvents({ feed: racingFeed, events: events(), inFlight, clock, recheckMs: 50 });
    const waiting = racingPoll(scope, { limit: 10, waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseEarlier();
    await earlier!.committed;
    expect((await waiting).events.map((event) => event.id)).toEqual([earlier!.id, later!.id]);
  });

  it('when a recording never commits, then readers wait at its position only until it is older than the longest a recording may take', async () => {
    inFlight.begin(); // a unit of work that rolled back: nobody ends it
    const committed = record('payment.failed');
    await committed.committed;
    expect((await poll(scope, { limit: 10, waitMs: 0 })).events).toEqual([]);
    clock.advance(30_001);
    expect((await poll(scope, { limit: 10, waitMs: 0 })).events.map((event) => event.id)).toEqual([committed.id]);
  });

  it('when the feed is closed (the service stops), then a waiting reader answers at once', async () => {
    const waiting = poll(scope, { limit: 10, waitMs: 60_000 });
    inFlight.close();
    expect(await waiting).toEqual({ events: [], lastEventId: null, hasMore: false });
  });
});
