import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBus, type Bus } from '@vaultline/bus';
import { waitFor } from '@vaultline/core';
import { paymentCapturedV1 } from '@vaultline/contracts';
import { startNotifier, type Harness } from './support/notifier-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { aPayment } from './support/events';

describe('delivery resilience', () => {
  let receiver: WebhookReceiver;
  let dir: string;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    dir = mkdtempSync(join(tmpdir(), 'notifier-'));
  });
  afterEach(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the notifier restarts between two attempts, then the pending retry is resumed from the store with the same webhook-id', async () => {
    let healthy = false;
    receiver.on('/restart', () => ({ status: healthy ? 200 : 500 }));
    const bus: Bus = await openBus('memory://');
    const storeFile = join(dir, 'notifier.db');
    // The retry waits long enough that the first notifier stops before it, even on a busy machine
    // (with 400 ms a loaded full run once saw the first notifier make the second attempt itself).
    const env = { WEBHOOK_RETRY_SCHEDULE_MS: '0,1500,400' };
    const first: Harness = await startNotifier({ storeFile, bus, env });
    const endpoint = (await first.call('m_restart', 'POST', '/webhook-endpoints', { url: `${receiver.url}/restart` })).body;
    await first.publish(paymentCapturedV1, 'm_restart', aPayment());
    await waitFor(async () => {
      const list = await first.call('m_restart', 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
      return list.body.data[0]?.status === 'pending' && list.body.data[0]?.attempt_count === 1;
    });
    await first.stop();

    healthy = true;
    const second = await startNotifier({ storeFile, bus, env });
    try {
      await waitFor(() => receiver.at('/restart').length === 2);
      const [before, after] = receiver.at('/restart');
      expect(after!.headers['webhook-id']).toBe(before!.headers['webhook-id']);
      const delivery = await waitFor(async () => {
        const list = await second.call('m_restart', 'GET', `/webhook-endpoints/${endpoint.id}/deliveries`);
        return list.body.data[0]?.status === 'succeeded' ? list.body.data[0] : null;
      });
      expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    } finally {
      await second.stop();
      await bus.close();
    }
  });

  it('when one endpoint is slow, then a fast endpoint of the same merchant gets all its deliveries meanwhile, and the slow one never has more than 4 in flight', async () => {
    let slowInFlight = 0;
    let slowMaxInFlight = 0;
    let slowAnswered = 0;
    receiver.on('/slow', () => {
      slowInFlight++;
      slowMaxInFlight = Math.max(slowMaxInFlight, slowInFlight);
      setTimeout(() => {
        slowInFlight--;
        slowAnswered++;
      }, 600);
      return { status: 200, delayMs: 600 };
    });
    const notifier = await startNotifier();
    try {
      await notifier.call('m_slow', 'POST', '/webhook-endpoints', { url: `${receiver.url}/slow` });
      await notifier.call('m_slow', 'POST', '/webhook-endpoints', { url: `${receiver.url}/fast` });
      for (let i = 0; i < 12; i++) await notifier.publish(paymentCapturedV1, 'm_slow', aPayment({ payment_id: `pay_${i}` }));

      await waitFor(() => receiver.at('/fast').length === 12, 10_000);
      expect(slowAnswered).toBe(0);
      expect(receiver.at('/slow').length).toBeLessThanOrEqual(4);
      await waitFor(() => receiver.at('/slow').length === 12, 10_000);
      expect(slowMaxInFlight).toBe(4);
    } finally {
      await receiver.close().catch(() => {});
      await notifier.stop();
    }
  });
});
