import { newId, type Clock, type Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import { EventNotFoundError } from './errors';
import type { MerchantEvent } from './merchant-event';
import type { EventRepository, FeedRepository } from './ports';

/**
 * The event feed: the merchant's event log in the order this notifier RECORDED the events, for readers
 * that follow it from an event id (GET /events/poll, `vaultline listen`).
 *
 * Why not the log's own order (event ids): an event id is taken by the service that published it, and
 * events of different services reach the notifier in another order than their ids (the bus keeps order
 * per key only). A reader at "after event B" would never see an earlier-id event A recorded after B.
 * So each recording gets a position (a UUIDv7 taken by this process, monotonic within it) and the feed
 * is read by position.
 *
 * Positions are taken before the recording commits; two recordings may commit in the reverse order of
 * their positions. A reader therefore looks at the recordings in flight here before each read, and answers
 * only entries below the oldest of them and none taken after it looked; it waits for the rest (exact for one notifier process; with several replicas,
 * an event recorded by one replica can be passed by a reader served by another within their clock skew).
 */
/**
 * Positions handed to recordings not committed yet. A recording that fails never says so (the
 * consumer's unit of work rolls back and the bus delivers the event again, to a new recording), so
 * a position left open is dropped after `maxOpenMs`: until then readers wait at it.
 */
export class RecordingsInFlight {
  private readonly open = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  constructor(
    private readonly clock: Clock,
    private readonly maxOpenMs = 30_000,
  ) {}

  private lastBegun: string | undefined;
  /** Positions taken here lately (as long as one may stay open), open or not. */
  private readonly recent = new Map<string, number>();

  /** A new position; the recording closes it once its unit of work committed. */
  begin(): string {
    const position = newId();
    const now = this.clock.now().getTime();
    this.forgetOlderThan(now - this.maxOpenMs);
    this.open.set(position, now);
    this.recent.set(position, now);
    this.lastBegun = position;
    return position;
  }

  /** Whether this process took the position lately (a recording elsewhere is not held back by `upTo`). */
  tookHere(position: string): boolean {
    return this.recent.has(position);
  }

  end(position: string): void {
    this.open.delete(position);
    this.wakeAll();
  }

  /**
   * What a reader may answer of the entries it reads next: those below the oldest position in flight
   * now (`below`), and none taken after now (`upTo`, the last position taken so far). Taken BEFORE the
   * read: a recording still in flight now holds the reader at its position; one that begins after now
   * takes a position above `upTo` (positions grow), so an entry the reader answers can never have a
   * later-committed one below it. (`upTo` holds back only positions taken here: see tookHere.)
   */
  horizon(): { below: string | undefined; upTo: string | undefined } {
    this.forgetOlderThan(this.clock.now().getTime() - this.maxOpenMs);
    let oldest: string | undefined;
    for (const position of this.open.keys()) if (oldest === undefined || position < oldest) oldest = position;
    return { below: oldest, upTo: this.lastBegun };
  }

  /** Maps keep insertion order, which is the order of the times: the old ones are at the front. */
  private forgetOlderThan(limit: number): void {
    for (const map of [this.open, this.recent]) {
      for (const [position, takenAt] of map) {
        if (takenAt >= limit) break;
        map.delete(position);
      }
    }
  }

  /** Resolves when a recording ends, after `ms`, when `signal` aborts, or at once once closed. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Stopping: every reader answers what it has now, and none waits any more. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Adds an event to the feed in the recording's unit of work; its position is released once that commits. */
export type AppendToFeed = (uow: UnitOfWork, event: Pick<MerchantEvent, 'id' | 'merchant_id' | 'mode' | 'type'>) => void;

export function appendToFeed({ feed, inFlight }: { feed: Pick<FeedRepository, 'insert'>; inFlight: RecordingsInFlight }): AppendToFeed {
  return (uow, event) => {
    const position = inFlight.begin();
    feed.insert(uow, { id: position, merchant_id: event.merchant_id, mode: event.mode, event_id: event.id, type: event.type });
    uow.afterCommit(() => inFlight.end(position));
  };
}

export interface PollRequest {
  /** Answer the events recorded after this one; unset: from the beginning of the log. */
  after?: string;
  /** Only these types (the cursor still moves past the others). */
  types?: string[];
  limit: number;
  /** How long to wait for an event when there is none yet (0: answer at once). */
  waitMs: number;
  /** The reader went away: stop waiting. */
  signal?: AbortSignal;
}

export interface PollAnswer {
  events: MerchantEvent[];
  /** Pass as `after` to continue: the last event the answer covers (returned or skipped by type); null when it covers none (no `after`, nothing recorded yet). */
  lastEventId: string | null;
  /** More entries are recorded already (the answer stopped at its limit). */
  hasMore: boolean;
}

/** GET /events/poll: the events recorded after a cursor, in recording order, waiting up to waitMs for the first. */
export type PollEvents = (scope: Scope, request: PollRequest) => Promise<PollAnswer>;

export interface PollEventsPorts {
  feed: Pick<FeedRepository, 'findByEvent' | 'listAfter'>;
  events: Pick<EventRepository, 'get' | 'getMany'>;
  inFlight: RecordingsInFlight;
  clock: Clock;
  /** The longest pause between two reads while waiting: a recording by another notifier process wakes no one here. */
  recheckMs: number;
}

export function pollEvents({ feed, events, inFlight, clock, recheckMs }: PollEventsPorts): PollEvents {
  /** The position to read after, and the cursor an empty answer gives back. */
  async function start(scope: Scope, after: string | undefined): Promise<{ position: string | undefined; cursor: string | null }> {
    if (after === undefined) return { position: undefined, cursor: null };
    const entry = await feed.findByEvent(scope, after);
    if (entry) return { position: entry.id, cursor: after };
    // An event recorded before the feed existed: its own id (a UUIDv7 of its time) stands for its position.
    if (await events.get(scope, after)) return { position: after, cursor: after };
    throw new EventNotFoundError();
  }

  return async (scope, request) => {
    let { position, cursor } = await start(scope, request.after);
    const types = request.types && request.types.length > 0 ? new Set(request.types) : undefined;
    const deadline = clock.now().getTime() + request.waitMs;
    for (;;) {
      const { below, upTo } = inFlight.horizon();
      const read = await feed.listAfter(scope, position, request.limit + 1);
      // In order: the first entry the reader may not answer yet ends the answer.
      const held = read.findIndex(
        (entry) => (below !== undefined && entry.id >= below) || ((upTo === undefined || entry.id > upTo) && inFlight.tookHere(entry.id)),
      );
      const settled = held === -1 ? read : read.slice(0, held);
      const page = settled.slice(0, request.limit);
      const hasMore = settled.length > request.limit;
      const wanted = types ? page.filter((entry) => types.has(entry.type)) : page;
      if (page.length > 0) {
        position = page[page.length - 1]!.id;
        cursor = page[page.length - 1]!.event_id;
      }
      if (wanted.length > 0 || hasMore) {
        const byId = new Map(
          (
            await events.getMany(
              scope,
              wanted.map((entry) => entry.event_id),
            )
          ).map((event) => [event.id, event]),
        );
        const found = wanted.map((entry) => byId.get(entry.event_id)).filter((event): event is MerchantEvent => event !== undefined);
        return { events: found, lastEventId: cursor, hasMore };
      }
      const left = deadline - clock.now().getTime();
      if (left <= 0 || request.signal?.aborted || inFlight.isClosed) return { events: [], lastEventId: cursor, hasMore: false };
      await inFlight.wait(Math.min(left, recheckMs), request.signal);
      if (request.signal?.aborted) return { events: [], lastEventId: cursor, hasMore: false };
    }
  };
}
