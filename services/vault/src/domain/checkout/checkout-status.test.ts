import type { CheckoutSessionRepository } from '../ports';
import { checkoutStatus } from './checkout-flow';
import { SessionArrivals } from './session-arrivals';

/** A store that never has the session: every read is of a made-up id. */
const noSessions = (): CheckoutSessionRepository & { reads: number } => {
  const repository = {
    reads: 0,
    get: async () => {
      repository.reads++;
      return null;
    },
    findByPaymentId: async () => null,
    insert: () => {
      throw new Error('not used');
    },
    update: () => {
      throw new Error('not used');
    },
  };
  return repository;
};

describe('checkout status of a session that has not arrived', () => {
  it('when as many reads as allowed already wait, then the next one answers not found at once with a single store read', async () => {
    const sessions = noSessions();
    const status = checkoutStatus({
      sessions,
      clock: { now: () => new Date() },
      arrivals: new SessionArrivals(),
      wait: { maxMs: 300, recheckMs: 100, maxWaiting: 1 },
    });

    const waiting = status('cs_made_up_1');
    const startedAt = Date.now();
    await expect(status('cs_made_up_2')).rejects.toMatchObject({ code: 'checkout_session_not_found' });
    expect(Date.now() - startedAt).toBeLessThan(100);
    await expect(waiting).rejects.toMatchObject({ code: 'checkout_session_not_found' });
    // The waiting read looked again while it waited; the refused one read once.
    expect(sessions.reads).toBeGreaterThanOrEqual(3);

    // Its place is free again once the first read gave up.
    const readsBefore = sessions.reads;
    await expect(status('cs_made_up_3')).rejects.toMatchObject({ code: 'checkout_session_not_found' });
    expect(sessions.reads - readsBefore).toBeGreaterThan(1);
  });
});
