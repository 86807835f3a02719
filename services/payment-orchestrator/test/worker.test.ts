import { CARDS, MERCHANT, oneOff, startOrchestrator, type Harness } from './support/orchestrator-harness';

let h: Harness;
afterEach(async () => {
  await h.stop();
});

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the background worker on the system clock', () => {
  it('when only time passes, then the worker settles the capture by itself at its due time, not at the next poll (processing, then captured)', async () => {
    // A poll far longer than the test may wait: only the runner's own wake-up at the due time can settle it.
    h = await startOrchestrator({ realTime: true, env: { PAYMENT_WORKER_POLL_MS: '30000', PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: '1000' } });
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.submitCard(created.body, CARDS.approved);
    const read = () => h.call(MERCHANT, 'GET', `/payments/${created.body.id}`).then((a) => a.body);
    const authorized = await eventually(read, (p) => p.amount.authorized !== undefined);
    expect(authorized.status).toBe('processing');
    const captured = await eventually(read, (p) => p.status === 'captured');
    expect(captured.amount.captured).toBe(1250);
  });

  it('when two captures fall due at different times before the next poll, then each settles at its own due time', async () => {
    h = await startOrchestrator({ realTime: true, env: { PAYMENT_WORKER_POLL_MS: '30000', PROCESSOR_SIMULATOR_CAPTURE_DELAY_MS: '300' } });
    const first = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const second = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.submitCard(first.body, CARDS.approved);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await h.submitCard(second.body, CARDS.approved);
    const started = Date.now();
    const captured = await Promise.all(
      [first, second].map((created) =>
        eventually(
          () => h.call(MERCHANT, 'GET', `/payments/${created.body.id}`).then((a) => a.body),
          (p) => p.status === 'captured',
        ),
      ),
    );
    expect(captured.map((p) => p.status)).toEqual(['captured', 'captured']);
    // Far below the 30 s poll: the second capture did not wait for a sweep.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('when the session lifetime passes, then the worker fails the payment with session_expired by itself', async () => {
    h = await startOrchestrator({ realTime: true, env: { PAYMENT_WORKER_POLL_MS: '50', PAYMENT_SESSION_LIFETIME_MS: '200' } });
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    const failed = await eventually(
      () => h.call(MERCHANT, 'GET', `/payments/${created.body.id}`).then((a) => a.body),
      (p) => p.status === 'failed',
    );
    expect(failed.failure_reason).toBe('session_expired');
  });
});
