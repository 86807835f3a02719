import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARDS, MERCHANT, oneOff, recurring, startOrchestrator, type Harness } from './support/orchestrator-harness';

let dir: string;
const running: Harness[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'orchestrator-restart-'));
});
afterEach(async () => {
  for (const h of running.splice(0)) await h.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function start(start?: string): Promise<Harness> {
  const h = await startOrchestrator({ storeFile: join(dir, 'orchestrator.db'), ...(start ? { start } : {}) });
  running.push(h);
  return h;
}

describe('restart safety (SQLite store)', () => {
  it('when the service stops while a capture is settling, then the next instance settles it from the store', async () => {
    const first = await start();
    const payment = await first.payOneOff(MERCHANT, CARDS.approved);
    expect(payment.status).toBe('processing');
    await first.stop();
    running.splice(0);

    const second = await start('2026-06-01T10:00:01.000Z');
    await second.settle();
    const after = await second.call(MERCHANT, 'GET', `/payments/${payment.id}`);
    expect(after.body).toMatchObject({ status: 'captured', amount: { captured: 1250 } });
    expect((await second.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: { kind: string }) => t.kind)).toEqual([
      'authorization',
      'capture',
    ]);
  });

  it('when the service restarts after the session lifetime, then the waiting payment fails with session_expired', async () => {
    const first = await start();
    const created = await first.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await first.stop();
    running.splice(0);
    const second = await start('2026-06-01T11:00:00.000Z');
    await second.settle();
    expect((await second.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body).toMatchObject({ status: 'failed', failure_reason: 'session_expired' });
  });

  it('when the service restarts while the consumer is away authenticating and the session expired meanwhile, then the next instance fails it authentication_abandoned, once; two instances racing fail it once', async () => {
    const first = await start();
    const created = await first.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await first.submitCard(created.body, CARDS.challenge);
    await first.settle();
    expect((await first.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body.status).toBe('processing');
    await first.stop();
    running.splice(0);

    const [second, third] = [await start('2026-06-01T11:00:00.000Z'), await start('2026-06-01T11:00:00.000Z')];
    await Promise.all([second.settle(), third.settle()]);
    expect((await second.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body).toMatchObject({
      status: 'failed',
      failure_reason: 'authentication_abandoned',
    });
    const failed = [...second.events, ...third.events].filter((e) => e.type === 'payment.failed' && e.data.payment_id === created.body.id);
    expect(failed).toHaveLength(1);
  });

  it('when a recurring payment and its subsequent run on SQLite, then the stored credentials work as on the memory store', async () => {
    const h = await start();
    const initial = await h.payOneOff(MERCHANT, CARDS.approved, recurring(), '/payments/recurring');
    await h.advance(200);
    const next = await h.call(
      MERCHANT,
      'POST',
      `/payments/recurring/${initial.id}/subsequent`,
      { amount: 1000, currency_code: 'EUR' },
      { 'x-test-now': '2026-07-01T08:00:00Z' },
    );
    expect(next.status).toBe(200);
    await h.settle();
    await h.advance(200);
    expect((await h.call(MERCHANT, 'GET', `/payments/${next.body.id}`)).body.status).toBe('captured');
  });

  it("when the service restarts past an authorization's validity, then the next instance voids it and cancels the payment (authorization_expired); a pending refund settles after a restart too", async () => {
    const first = await start();
    await first.call(MERCHANT, 'PUT', '/flow-matrix', {
      default_flow: 'simulator_auto_capture',
      rules: [{ name: 'manual', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
    });
    const authorized = await first.payOneOff(MERCHANT, CARDS.approved, { reference: 'manual-1' });
    expect(authorized.status).toBe('authorized');
    const captured = await first.payOneOff(MERCHANT, CARDS.approved);
    await first.advance(200);
    const refund = await first.call(MERCHANT, 'POST', `/payments/${captured.id}/refunds`, { amount: 100 });
    expect(refund.body.status).toBe('pending');
    await first.stop();
    running.splice(0);

    const second = await start('2026-06-08T10:00:01.000Z');
    await second.settle();
    expect((await second.call(MERCHANT, 'GET', `/payments/${authorized.id}`)).body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'authorization_expired',
    });
    expect((await second.call(MERCHANT, 'GET', `/refunds/${refund.body.id}`)).body).toMatchObject({ status: 'succeeded' });
    expect((await second.call(MERCHANT, 'GET', `/payments/${captured.id}`)).body.amount).toMatchObject({ refunded: 100 });
  });
});
