import { ProviderRequestError, ProviderUnreachableError } from '../domain/import-errors';
import type { ProviderContext, ProviderHttpRequest } from '../domain/import-provider';
import { callPlatform } from './platform-call';
import { platformErrorOf, shouldRetryOf } from './provider-a/provider-a.mapper';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

/** A platform that answers from a script, recording the requests and the pauses between them. */
function scripted(answers: Answer[], random: () => number = () => 0.5) {
  const requests: ProviderHttpRequest[] = [];
  const sleeps: number[] = [];
  const context: ProviderContext = {
    http: {
      request: async (request) => {
        requests.push(request);
        const answer = answers.shift() ?? { status: 200, body: {} };
        return { status: answer.status, headers: answer.headers ?? {}, body: Buffer.from(JSON.stringify(answer.body ?? {})) };
      },
    },
    baseUrl: 'https://platform.example',
    retry: { maxAttempts: 5, baseDelayMs: 100, maxBackoffMs: 1_000, maxRetryAfterMs: 60_000, maxRateLimitedAttempts: 50 },
    sleep: async (ms) => void sleeps.push(ms),
    random,
    pageSize: 100,
    lookahead: 1,
  };
  const call = (request: Partial<ProviderHttpRequest> = {}) =>
    callPlatform(context, { url: 'https://platform.example/v1/x', method: 'GET', headers: {}, ...request }, new AbortController().signal, {
      errorOf: platformErrorOf,
      shouldRetryOf,
    });
  return { requests, sleeps, call };
}

const tooMany: Answer = { status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit' } } };

describe('calling the platform with its retry rules', () => {
  it('when 429 comes without Retry-After, then the pauses grow exponentially from the base delay, with jitter, up to the cap', async () => {
    const platform = scripted(Array(6).fill(tooMany), () => 0.5);

    await platform.call();

    // base × 2^(n-1), capped at 1 s, then 50–100 % of it: with random() = 0.5, 75 %.
    expect(platform.sleeps).toEqual([75, 150, 300, 600, 750, 750]);
    expect(platform.requests).toHaveLength(7);
  });

  it('when the jitter draws differ, then the pauses stay within half and all of the exponential delay', async () => {
    const draws = [0, 0.999, 0.3, 0.7];
    const platform = scripted(Array(4).fill(tooMany), () => draws.shift()!);

    await platform.call();

    platform.sleeps.forEach((ms, n) => {
      const full = Math.min(1_000, 100 * 2 ** n);
      expect(ms).toBeGreaterThanOrEqual(full / 2);
      expect(ms).toBeLessThanOrEqual(full);
    });
    expect(new Set(platform.sleeps.map((ms, n) => ms / (100 * 2 ** n))).size).toBe(4);
  });

  it('when 429 comes with Retry-After, then that is the pause', async () => {
    const platform = scripted([{ ...tooMany, headers: { 'retry-after': '2' } }]);
    await platform.call();
    expect(platform.sleeps).toEqual([2_000]);
  });

  it('when the platform says Stripe-Should-Retry: false, then a 503 is not retried', async () => {
    const platform = scripted([{ status: 503, headers: { 'stripe-should-retry': 'false' }, body: { error: { type: 'api_error' } } }]);

    await expect(platform.call()).rejects.toBeInstanceOf(ProviderUnreachableError);
    expect(platform.requests).toHaveLength(1);
  });

  it('when the platform says Stripe-Should-Retry: true, then even a 409 is retried, with the same Idempotency-Key', async () => {
    const platform = scripted([
      { status: 409, headers: { 'stripe-should-retry': 'true' }, body: { error: { type: 'invalid_request_error', code: 'idempotency_key_in_use' } } },
    ]);

    await platform.call({ method: 'POST', headers: { 'idempotency-key': 'job:pm' } });

    expect(platform.requests.map((r) => r.headers['idempotency-key'])).toEqual(['job:pm', 'job:pm']);
  });

  it('when the same forward is still running at the platform (409 idempotency_key_in_use, no header), then it is retried with the same key', async () => {
    const platform = scripted([{ status: 409, body: { error: { type: 'invalid_request_error', code: 'idempotency_key_in_use' } } }]);

    await platform.call({ method: 'POST', headers: { 'idempotency-key': 'job:pm' } });

    expect(platform.requests).toHaveLength(2);
  });

  it("when a 4xx refusal comes, then it is not retried and carries the platform's code and param", async () => {
    const platform = scripted([{ status: 400, body: { error: { type: 'invalid_request_error', param: 'url', message: 'not enabled' } } }]);

    const error = await platform.call().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderRequestError);
    expect(error).toMatchObject({ httpStatus: 400, providerCode: 'invalid_request_error', param: 'url' });
    expect(platform.requests).toHaveLength(1);
  });
});
