/**
 * How often a pending capture or refund is asked about at its processor until the processor gives a final
 * word. The plugin says when to ask first (`poll_after_ms` of its pending answer: soon where the processor
 * can be asked, Stripe's `GET /v1/refunds/{id}`, Checkout.com's `GET /payments/{id}/actions`; later where
 * only its notifications tell, Adyen); each question that gets no final word doubles the wait, up to
 * `SETTLEMENT_RECHECK_CAP_MS`, and the questions go on until the answer is final. What is due is the
 * capture's payment's or the refund's `next_run_at` in the store, so a restart loses nothing; the payment
 * runner and the after-sale worker ask when it falls due, and a notification makes it due at once.
 */
export const SETTLEMENT_RECHECK_CAP_MS = 6 * 60 * 60_000;

/** The wait before the next question, after `checks` questions that got no final word (0: the first one). */
export function settlementRecheckMs(firstMs: number, checks: number): number {
  return Math.min(SETTLEMENT_RECHECK_CAP_MS, Math.max(0, firstMs) * 2 ** Math.min(checks, 32));
}
