import { newId, waitFor } from '@vaultline/core';
import { paymentCapturedV1, paymentFailedV1, tokenDeletedV1 } from '@vaultline/contracts';
import { startNotifier, type Harness } from './support/notifier-harness';
import { aPayment } from './support/events';
import { expectDocumented } from './support/openapi';

interface Poll {
  status: number;
  body: { data: Array<{ id: string; type: string; livemode: boolean }>; has_more: boolean; last_event_id: string | null; code?: string };
}

describe('GET /events/poll: the event log in recording order, waited for and resumable from an event id', () => {
  let notifier: Harness;
  beforeAll(async () => {
    notifier = await startNotifier();
  });
  afterAll(() => notifier.stop());

  const poll = async (merchant: string | { merchantId: string; mode: 'test' | 'live' }, query: string): Promise<Poll> => {
    const response = (await notifier.call(merchant, 'GET', `/events/poll?${query}`)) as Poll;
    expectDocumented('GET', '/events/poll', response);
    return response;
  };
  const logged = (merchant: string, count: number) =>
    waitFor(async () => (await notifier.call(merchant, 'GET', '/events?limit=100')).body.data.length >= count, 20_000);

  it('when a reader waits on an empty log, then it gets the first event as soon as it is recorded', async () => {
    const m = 'm_poll_wait';
    expect((await poll(m, 'wait_seconds=0')).body).toEqual({ object: 'list', data: [], has_more: false, last_event_id: null });
    const waiting = poll(m, 'wait_seconds=20');
    const eventId = await notifier.publish(paymentCapturedV1, m, aPayment());
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((e) => e.id)).toEqual([eventId]);
    expect(answer.body.last_event_id).toBe(eventId);
  });

  it('when nothing is recorded after the cursor, then wait_seconds=0 answers at once with an empty list and the cursor', async () => {
    const m = 'm_poll_empty';
    const first = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 1);
    const answer = await poll(m, `after=${first}&wait_seconds=0`);
    expect(answer.body).toEqual({ object: 'list', data: [], has_more: false, last_event_id: first });
    expect((await poll(m, 'wait_seconds=0')).body).toMatchObject({ data: [{ id: first }], last_event_id: first });
  });

  it('when a reader resumes from last_event_id, then it gets every later event once, in pages of limit', async () => {
    const m = 'm_poll_resume';
    const start = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 1);
    const published: string[] = [];
    for (let i = 0; i < 5; i++) published.push(await notifier.publish(paymentFailedV1, m, aPayment({ status: 'failed', failure_reason: 'declined' })));
    await logged(m, 6);
    const seen: string[] = [];
    let after = start;
    for (let pages = 0; pages < 10 && seen.length < 5; pages++) {
      const answer = await poll(m, `after=${after}&limit=2&wait_seconds=0`);
      seen.push(...answer.body.data.map((e) => e.id));
      after = answer.body.last_event_id!;
    }
    expect(seen).toEqual(published);
    expect((await poll(m, `after=${after}&wait_seconds=0`)).body.data).toEqual([]);
  });

  it('when an event with an earlier id is recorded after a later one, then a reader past the later one still gets it (recording order, not id order)', async () => {
    const m = 'm_poll_order';
    const earlierId = newId();
    const later = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 1);
    expect((await poll(m, 'wait_seconds=0')).body.last_event_id).toBe(later);
    await notifier.publish(tokenDeletedV1, m, { token_id: 'tok_late' }, earlierId);
    const answer = await poll(m, `after=${later}&wait_seconds=20`);
    expect(earlierId < later).toBe(true);
    expect(answer.body.data.map((e) => e.id)).toEqual([earlierId]);
  });

  it('when a type filter is given, then only those types are answered and the cursor moves past the others', async () => {
    const m = 'm_poll_types';
    const start = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 1);
    await notifier.publish(paymentFailedV1, m, aPayment({ status: 'failed', failure_reason: 'declined' }));
    const captured = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 3);
    const answer = await poll(m, `after=${start}&type=payment.captured,refund.succeeded&wait_seconds=0`);
    expect(answer.body.data.map((e) => `${e.type} ${e.id}`)).toEqual([`payment.captured ${captured}`]);
    expect(answer.body.last_event_id).toBe(captured);
  });

  it('when another merchant or the other mode polls, then it sees none of these events and their ids answer 404 event_not_found', async () => {
    const m = 'm_poll_scope';
    const eventId = await notifier.publish(paymentCapturedV1, m, aPayment());
    await logged(m, 1);
    const otherMerchant = await poll('m_poll_other', `after=${eventId}&wait_seconds=0`);
    expect(otherMerchant.status).toBe(404);
    expect(otherMerchant.body.code).toBe('event_not_found');
    const live = await poll({ merchantId: m, mode: 'live' }, `after=${eventId}&wait_seconds=0`);
    expect(live.status).toBe(404);
    const liveHead = await poll({ merchantId: m, mode: 'live' }, 'wait_seconds=0');
    expect(liveHead.body).toMatchObject({ data: [], last_event_id: null });
  });

  it('when the query is malformed, then it answers 422 naming the parameter', async () => {
    expect((await notifier.call('m_poll_bad', 'GET', '/events/poll?wait_seconds=26')).body).toMatchObject({ status: 422, field: 'wait_seconds' });
    expect((await notifier.call('m_poll_bad', 'GET', '/events/poll?after=evt_1')).body).toMatchObject({ status: 422, field: 'after' });
    expect((await notifier.call('m_poll_bad', 'GET', '/events/poll?limit=0')).body).toMatchObject({ status: 422, field: 'limit' });
  });
});
