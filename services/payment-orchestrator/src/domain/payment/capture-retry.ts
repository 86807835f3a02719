/**
 * A capture whose answer is a timeout, a 5xx or a refused connection is ambiguous: the processor may have
 * taken it. It is sent again with the same idempotency key (`{payment_id}:capture`: the processor answers a
 * repeat with its first answer, never a second capture), after 1, 2, 4, 8 and 16 s. The payment stays
 * `capturing` all along and is never failed for it: once the retries are spent it waits for the
 * processor's word (its notification, or, where the processor can be asked, the settlement sweep) and is
 * looked at again every `CAPTURE_SETTLEMENT_RECHECK_MS`.
 */
export const CAPTURE_RETRIES = 5;
const CAPTURE_RETRY_BASE_MS = 1_000;
export const CAPTURE_SETTLEMENT_RECHECK_MS = 5 * 60_000;

/** The wait before sending attempt `attempt + 1` (attempt counts from 1), or null once the retries are spent. */
export function captureRetryDelayMs(attempt: number): number | null {
  return attempt <= CAPTURE_RETRIES ? CAPTURE_RETRY_BASE_MS * 2 ** (attempt - 1) : null;
}
