/**
 * The benchmarks measure the system, not the edge's rate limit: one key sends ~1,000 req/s, far over the
 * default bucket (RATE_LIMIT_PER_SECOND 100, RATE_LIMIT_BURST 200). Each bench raises it explicitly and says so.
 */
export const BENCH_RATE_LIMIT_ENV = { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' };

export function announceBenchRateLimit(): void {
  console.log(
    `rate limit raised for the bench's key: RATE_LIMIT_PER_SECOND=${BENCH_RATE_LIMIT_ENV.RATE_LIMIT_PER_SECOND} RATE_LIMIT_BURST=${BENCH_RATE_LIMIT_ENV.RATE_LIMIT_BURST} (defaults 100/200)`,
  );
}
