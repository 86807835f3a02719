import { AppError } from '@vaultline/core';
import { isHardDecline, type Decline } from './decline';
import { isMastercard, mastercardRetryAfterMs } from './scheme-rules';

/**
 * The card schemes' limits on retrying a declined card, for merchant-initiated payments (the consumer is
 * not there to offer another card, so a merchant's billing run is what retries). Configuration, with the
 * schemes' published figures as defaults (sources in scheme-rules.ts):
 *
 * - Visa: no reattempt after a category 1 decline; at most 15 reattempts in 30 days after category 2 and
 *   3 declines (its Excessive Reattempts rule).
 * - Mastercard: no reattempt after MAC 03 or 21; none before the wait MAC 24–30 names; at most 10 attempts
 *   after declines in 24 hours and 35 in 30 days (Transaction Processing Excellence).
 * - Other schemes publish none here: Visa's figure applies.
 *
 * A retry is an attempt with a card whose latest attempt was declined; the attempts of the card are kept
 * on its stored credentials (the initial payment's and every merchant-initiated one's).
 */
export interface RetryLimits {
  visaPer30Days: number;
  mastercardPer24Hours: number;
  mastercardPer30Days: number;
  otherPer30Days: number;
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = { visaPer30Days: 15, mastercardPer24Hours: 10, mastercardPer30Days: 35, otherPer30Days: 15 };

/** One authorization attempt with the card, as its credentials remember it (no card data). */
export interface CardAttempt {
  /** The payment's effective time of the attempt. */
  at: string;
  declined: boolean;
  /** A hard decline (lost or stolen, fraud, invalid card, or an advice that forbids another attempt). */
  never_retry?: boolean;
  /** Mastercard MAC 24–30: no attempt before this time. */
  retry_after?: string | null;
  category?: string;
  advice_code?: string | null;
}

const DAY_MS = 86_400_000;
const WINDOW_MS = 30 * DAY_MS;
/** The attempts a credential keeps: more than any limit counts, fewer than a document should carry. */
const KEPT = 64;

export class RetryLimitReached extends AppError {
  constructor(detail: string) {
    super('retry_limit_reached', 422, detail);
  }
}

/** The card's attempts with these ones added, the ones older than 30 days (and beyond the last 64) let go. */
export function withCardAttempts(history: readonly CardAttempt[] | undefined, declines: ReadonlyArray<Decline | null>, at: Date): CardAttempt[] {
  const since = at.getTime() - WINDOW_MS;
  const added = declines.map((decline): CardAttempt => {
    if (!decline) return { at: at.toISOString(), declined: false };
    const wait = mastercardRetryAfterMs(decline.advice_code);
    return {
      at: at.toISOString(),
      declined: true,
      ...(isHardDecline(decline) ? { never_retry: true } : {}),
      ...(wait !== null ? { retry_after: new Date(at.getTime() + wait).toISOString() } : {}),
      category: decline.category,
      advice_code: decline.advice_code,
    };
  });
  return [...(history ?? []).filter((attempt) => Date.parse(attempt.at) >= since), ...added].slice(-KEPT);
}

/**
 * Why a new attempt with this card, now, would break the scheme's retry rules; null when it may be made.
 * `extra`: declines of the payment being routed, not yet on the credentials (a next_processor within it).
 */
export function retryRefusal(
  history: readonly CardAttempt[] | undefined,
  scheme: string | null,
  now: Date,
  limits: RetryLimits,
  extra: readonly Decline[] = [],
): string | null {
  const attempts = withCardAttempts(history, extra, now);
  // Not a retry: the card's latest attempt was not declined (or it has none).
  if (attempts.length === 0 || !attempts[attempts.length - 1]!.declined) return null;
  // The declines since the card was last approved: the chain this attempt would retry.
  const lastApproved = attempts.map((attempt) => attempt.declined).lastIndexOf(false);
  const chain = attempts.slice(lastApproved + 1);
  const hard = chain.find((attempt) => attempt.never_retry);
  if (hard) {
    return `the card's attempt of ${hard.at} was a hard decline (${hard.category ?? 'declined'}${hard.advice_code ? `, advice ${hard.advice_code}` : ''}): the schemes allow no retry of it`;
  }
  const waitUntil = chain[chain.length - 1]!.retry_after;
  if (waitUntil && now.getTime() < Date.parse(waitUntil))
    return `Mastercard's advice (MAC ${chain[chain.length - 1]!.advice_code}) allows the next attempt from ${waitUntil}`;
  // Retries made so far: every attempt of the chain after its first.
  const retriesSince = (ms: number) =>
    Math.max(0, chain.filter((attempt) => Date.parse(attempt.at) > now.getTime() - ms).length - (Date.parse(chain[0]!.at) > now.getTime() - ms ? 1 : 0));
  const checks: Array<[number, number, string]> = isMastercard(scheme)
    ? [
        [limits.mastercardPer24Hours, DAY_MS, 'Mastercard allows %d retries of a declined card in 24 hours'],
        [limits.mastercardPer30Days, WINDOW_MS, 'Mastercard allows %d retries of a declined card in 30 days'],
      ]
    : scheme !== null && scheme.trim().toUpperCase() === 'VISA'
      ? [[limits.visaPer30Days, WINDOW_MS, 'Visa allows %d reattempts of a declined card in 30 days']]
      : [[limits.otherPer30Days, WINDOW_MS, "at most %d retries of a declined card in 30 days (Visa's figure, for schemes that publish none)"]];
  for (const [limit, window, words] of checks) {
    if (retriesSince(window) >= limit) return `${words.replace('%d', String(limit))}, and ${retriesSince(window)} were made`;
  }
  return null;
}
