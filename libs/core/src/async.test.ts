import { sleepEndingOnAbort, sleepFailingOnAbort } from './async';

class Interrupted extends Error {}
const interrupted = () => new Interrupted('interrupted');

describe('sleeping until a time or an abort', () => {
  it('when nothing aborts, then both sleeps resolve once the time has passed', async () => {
    const signal = new AbortController().signal;
    const started = Date.now();

    await Promise.all([sleepEndingOnAbort(30, signal), sleepFailingOnAbort(30, signal, interrupted)]);

    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('when the signal aborts during sleepEndingOnAbort, then it resolves at once instead of waiting out the time', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = sleepEndingOnAbort(10_000, controller.signal);

    controller.abort();

    await expect(sleeping).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('when the signal aborts during sleepFailingOnAbort, then it rejects at once with the given error', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = sleepFailingOnAbort(10_000, controller.signal, interrupted);

    controller.abort();

    await expect(sleeping).rejects.toBeInstanceOf(Interrupted);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('when the signal has already aborted, then sleepEndingOnAbort resolves and sleepFailingOnAbort rejects without waiting', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(sleepEndingOnAbort(10_000, controller.signal)).resolves.toBeUndefined();
    await expect(sleepFailingOnAbort(10_000, controller.signal, interrupted)).rejects.toBeInstanceOf(Interrupted);
  });
});
