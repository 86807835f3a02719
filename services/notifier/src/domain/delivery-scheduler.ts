import type { Clock } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import type { QueueEntry } from './delivery-queue';
import type { AttemptResult } from './webhook-delivery';
import type { DomainLogger } from './ports';

export interface DeliverySchedulerOptions {
  listDue(nowMs: number, page: PageRequest): Promise<Page<QueueEntry>>;
  delivery: {
    claim(due: QueueEntry[]): Promise<QueueEntry[]>;
    attempt(entry: QueueEntry): Promise<AttemptResult>;
  };
  clock: Clock;
  logger: DomainLogger;
  /** Attempts in flight in this process. */
  maxInFlight: number;
  /** Attempts in flight to one endpoint: a slow endpoint holds at most this many slots. */
  maxInFlightPerEndpoint: number;
  /** Fallback scan, for entries created by other processes and retries after a restart. */
  pollIntervalMs: number;
  /** Due entries read per query. */
  scanPageSize?: number;
  /** Due entries looked at per scan before giving the loop back (the next scan continues there). */
  scanBudget?: number;
  /** How long stop() waits for attempts in flight. */
  drainTimeoutMs?: number;
}

interface Selection {
  picked: QueueEntry[];
  ids: Set<string>;
  reserved: Map<string, number>;
  free: number;
}

const MAX_TIMED_WAKES = 10_000;
/** Entries kept in memory while waiting for a slot; beyond this, they wait in the queue for a scan. */
const MAX_WAITING = 10_000;
/** A hinted entry whose commit is not visible yet is looked for again this much later. */
const HINT_RETRY_MS = 10;

/**
 * The delivery worker. Entries created by this process are offered to it directly and claimed
 * without a query; everything else (retries, a restart, other processes, lapsed claims) is found by
 * scanning the queue for due entries. It claims as many as there are free slots — globally and per
 * endpoint — and runs each attempt on its own, so one slow or dead endpoint only ever occupies its
 * own few slots and never delays another's deliveries. Entries of a saturated endpoint are skipped,
 * not waited on; the scan continues past them (and a later scan resumes where it stopped), so a
 * large backlog for one endpoint cannot starve the others. Entries that found no free slot wait in
 * memory (bounded) and are offered again as soon as a slot frees up, so a busy endpoint's deliveries
 * are not read back from the queue once per finished attempt.
 */
export class DeliveryScheduler {
  private stopped = true;
  private running = false;
  private again = false;
  private wakeQueued = false;
  /** A scan is owed: a timer fired, a slot freed up while work was left behind, a replay… */
  private scanWanted = false;
  /** The last pass left due work behind for lack of slots; a freed slot must trigger a scan. */
  private starved = false;
  private cursor: string | undefined;
  private hints: QueueEntry[] = [];
  /** Due entries left behind for lack of a slot (still unclaimed in the queue), oldest first, by id. */
  private readonly waiting = new Map<string, QueueEntry>();
  private readonly inFlight = new Set<string>();
  private readonly perEndpoint = new Map<string, number>();
  private readonly tasks = new Set<Promise<void>>();
  private pollTimer: NodeJS.Timeout | undefined;
  private timedWake: { at: number; timer: NodeJS.Timeout } | undefined;
  /** Future due times we know of (sorted), so a retry in 20 ms does not wait for the poll. */
  private wakeTimes: number[] = [];

  constructor(private readonly options: DeliverySchedulerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.pollTimer = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.pollTimer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.timedWake) clearTimeout(this.timedWake.timer);
    this.timedWake = undefined;
    this.wakeTimes = [];
    this.hints = [];
    this.waiting.clear();
    if (this.tasks.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.tasks]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 5_000))),
    ]);
    clearTimeout(timer);
  }

  /** Scans for due entries on the next turn (many wakes in one tick make one scan). */
  wake(): void {
    this.scanWanted = true;
    this.kick();
  }

  /**
   * Entries just written by a unit of work that commits right after the caller returns: they are
   * claimed on the next turn without a scan (if the commit is not visible yet, a scan follows).
   */
  offer(entries: QueueEntry[]): void {
    if (this.stopped) return;
    this.hints.push(...entries);
    this.kick();
  }

  /** Scans when an entry becomes due at `atMs`. */
  wakeAt(atMs: number): void {
    if (this.stopped) return;
    if (this.wakeTimes.length < MAX_TIMED_WAKES) insertSorted(this.wakeTimes, atMs);
    this.armTimer();
  }

  private kick(): void {
    if (this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      void this.loop();
    });
  }

  private armTimer(): void {
    const next = this.wakeTimes[0];
    if (next === undefined || this.stopped) return;
    if (this.timedWake && this.timedWake.at <= next) return;
    if (this.timedWake) clearTimeout(this.timedWake.timer);
    const delay = Math.max(0, next - this.options.clock.now().getTime());
    const timer = setTimeout(() => {
      this.timedWake = undefined;
      const now = this.options.clock.now().getTime();
      while (this.wakeTimes[0] !== undefined && this.wakeTimes[0] <= now) this.wakeTimes.shift();
      this.wake();
      this.armTimer();
    }, delay);
    timer.unref();
    this.timedWake = { at: next, timer };
  }

  private async loop(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        if (this.hints.length > 0) await this.claimHints();
        if (this.scanWanted) {
          this.scanWanted = false;
          await this.scan();
        }
      } while (this.again && !this.stopped);
    } catch (error) {
      this.options.logger.error({ err: error }, 'webhook delivery scan failed; retrying at the next poll');
    } finally {
      this.running = false;
    }
  }

  private async claimHints(): Promise<void> {
    const hints = this.hints;
    this.hints = [];
    const selection = this.newSelection();
    this.keepWaiting(this.select(hints, selection));
    if (selection.picked.length === 0 || this.stopped) return;
    const claimed = await this.options.delivery.claim(selection.picked);
    // Not claimable yet (the commit is not visible) or taken by another worker: a scan sorts it out.
    if (claimed.length < selection.picked.length) this.wakeAt(this.options.clock.now().getTime() + HINT_RETRY_MS);
    for (const entry of claimed) this.run(entry);
  }

  /** Entries that found no free slot wait here for one; past the bound they stay in the queue for a scan. */
  private keepWaiting(entries: QueueEntry[]): void {
    for (const entry of entries) {
      if (this.waiting.size >= MAX_WAITING && !this.waiting.has(entry.id)) this.starved = true;
      else this.waiting.set(entry.id, entry);
    }
  }

  private newSelection(): Selection {
    return { picked: [], ids: new Set(), reserved: new Map(), free: this.options.maxInFlight - this.inFlight.size };
  }

  /** Adds the candidates that fit into the free slots, globally and per endpoint; returns those that did not fit. */
  private select(candidates: QueueEntry[], selection: Selection): QueueEntry[] {
    const leftBehind: QueueEntry[] = [];
    for (const entry of candidates) {
      if (this.inFlight.has(entry.id) || selection.ids.has(entry.id)) continue;
      const load = (this.perEndpoint.get(entry.endpoint_id) ?? 0) + (selection.reserved.get(entry.endpoint_id) ?? 0);
      if (selection.picked.length >= selection.free || load >= this.options.maxInFlightPerEndpoint) {
        leftBehind.push(entry);
        continue;
      }
      selection.picked.push(entry);
      selection.ids.add(entry.id);
      this.waiting.delete(entry.id);
      selection.reserved.set(entry.endpoint_id, (selection.reserved.get(entry.endpoint_id) ?? 0) + 1);
    }
    return leftBehind;
  }

  private async scan(): Promise<void> {
    const selection = this.newSelection();
    if (selection.free <= 0) {
      this.starved = true;
      return;
    }
    if (this.stopped) return;
    this.starved = false;
    const now = this.options.clock.now().getTime();
    const pageSize = this.options.scanPageSize ?? 200;
    const budget = this.options.scanBudget ?? 2_000;
    let cursor = this.cursor;
    let wrapped = cursor === undefined;
    let scanned = 0;

    for (;;) {
      const page = await this.options.listDue(now, { limit: pageSize, ...(cursor ? { after: cursor } : {}) });
      scanned += page.items.length;
      this.keepWaiting(this.select(page.items, selection));
      if (selection.picked.length >= selection.free) {
        cursor = undefined; // capacity is full: next time start again from the oldest
        break;
      }
      if (!page.has_more || !page.next_cursor) {
        cursor = undefined;
        if (wrapped || scanned >= budget) break;
        wrapped = true; // started in the middle: look at the older part once
        continue;
      }
      cursor = page.next_cursor;
      if (scanned >= budget) {
        this.starved = true; // more due work lies past the budget
        break; // keep the cursor: the next scan continues past this point
      }
    }
    this.cursor = cursor;
    if (selection.picked.length === 0 || this.stopped) return;

    const claimed = await this.options.delivery.claim(selection.picked);
    for (const entry of claimed) this.run(entry);
  }

  private run(entry: QueueEntry): void {
    this.inFlight.add(entry.id);
    this.perEndpoint.set(entry.endpoint_id, (this.perEndpoint.get(entry.endpoint_id) ?? 0) + 1);
    const task = (async () => {
      try {
        const result = await this.options.delivery.attempt(entry);
        if (result.nextAttemptAt !== null) this.wakeAt(result.nextAttemptAt);
      } catch (error) {
        // The entry stays claimed until its lease runs out; then it is attempted again.
        this.options.logger.error({ err: error, message_id: entry.id }, 'webhook attempt could not be recorded');
        this.wakeAt(entry.due_at);
      } finally {
        this.inFlight.delete(entry.id);
        const left = (this.perEndpoint.get(entry.endpoint_id) ?? 1) - 1;
        if (left <= 0) this.perEndpoint.delete(entry.endpoint_id);
        else this.perEndpoint.set(entry.endpoint_id, left);
        // A slot is free: the entries waiting in memory go first; scan only if work was left in the queue.
        if (this.waiting.size > 0) {
          this.hints = [...this.waiting.values(), ...this.hints];
          this.waiting.clear();
          this.kick();
        }
        if (this.starved) this.wake();
      }
    })();
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }
}

function insertSorted(values: number[], value: number): void {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  if (values[low] !== value) values.splice(low, 0, value);
}
