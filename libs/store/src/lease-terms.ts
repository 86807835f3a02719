/** A lease as the memory and SQLite adapters keep it (MongoDB computes the same on the server). */
export interface LeaseRow {
  holder: string;
  token: number;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * The lease after `holder` asks for it at `now`, or null while another holder's lease runs. A live holder
 * renewing keeps its fencing token; any new term (another holder, or the same one after expiry) gets the
 * next one, so a write fenced by an older term can be told apart.
 */
export function nextLeaseTerm(current: LeaseRow | undefined, holder: string, ttlMs: number, now: number): LeaseRow | null {
  const live = current !== undefined && current.expiresAt > now;
  if (live && current.holder !== holder) return null;
  return { holder, token: live ? current.token : (current?.token ?? 0) + 1, expiresAt: now + ttlMs };
}

export const DAY_MS = 86_400_000;
/** How often the SQLite and memory adapters drop expired processed-event marks. */
export const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Drops processed-event marks older than the retention now and then every PRUNE_INTERVAL_MS (the timer
 * does not keep the process alive); returns its stop. A failed prune waits for the next round.
 */
export function pruneProcessedPeriodically(
  prune: (before: Date) => Promise<number>,
  retentionMs: number,
  now: () => number,
  intervalMs = PRUNE_INTERVAL_MS,
): () => void {
  const run = () => void prune(new Date(now() - retentionMs)).catch(() => undefined);
  const first = setTimeout(run, 0);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
