import { eventMessage } from '@vaultline/bus';
import { endStateOf, expectSameEndStateUnderRedelivery, normalizer } from '@vaultline/bus/testing';
import { paymentCapturedV1, paymentFailedV1, tokenCreatedV1 } from '@vaultline/contracts';
import { newId } from '@vaultline/core';
import { EVENTS, MESSAGES } from '../src/data/collections';
import { startNotifier } from './support/notifier-harness';
import { aPayment } from './support/events';
import { WebhookReceiver } from './support/webhook-receiver';

const MERCHANTS = ['m_dup_1', 'm_dup_2'];

describe("the notifier's merchant-event consumer under duplicate and reordered delivery", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('when every merchant event arrives two or three times, some after later ones, then the event log, the webhook messages and the webhooks received are those of single delivery', async () => {
    const messages = MERCHANTS.flatMap((merchantId) => {
      const payment = newId();
      const token = newId();
      return [
        eventMessage(tokenCreatedV1, {
          scope: { merchantId, mode: 'test' },
          data: { token_id: token, business_key: null, scheme: 'VISA', fingerprint: 'fp_hmac_value', source: 'api', updated: false, correlation_id: null },
        }),
        eventMessage(paymentCapturedV1, { scope: { merchantId, mode: 'test' }, data: aPayment({ payment_id: payment }) }),
        eventMessage(paymentFailedV1, {
          scope: { merchantId, mode: 'test' },
          data: aPayment({ payment_id: newId(), status: 'failed', amount: { requested: 700 }, failure_reason: 'declined' }),
        }),
        eventMessage(paymentCapturedV1, { scope: { merchantId, mode: 'test' }, data: aPayment({ payment_id: payment, reference: 'order-43' }) }),
      ];
    });
    let runs = 0;

    const report = await expectSameEndStateUnderRedelivery({
      messages,
      start: async (bus) => {
        const path = `/run-${++runs}`;
        const notifier = await startNotifier({ bus });
        for (const merchantId of MERCHANTS) {
          const created = await notifier.call(merchantId, 'POST', '/webhook-endpoints', {
            url: `${receiver.url}${path}`,
            events: ['payment.captured', 'payment.failed', 'token.created'],
          });
          expect(created.status).toBe(201);
        }
        const webhookIds = () => receiver.at(path).map((r) => r.headers['webhook-id'] ?? '');
        return {
          // Every event reached its endpoint.
          quiet: async () => new Set(webhookIds()).size === messages.length,
          endState: async (published) => ({
            // duration_ms is how long the receiver took: a measurement, not an outcome.
            ...(await endStateOf(notifier.store, [EVENTS, MESSAGES], { published, given: messages, ignoreFields: ['duration_ms'] })),
            // Each webhook as received (a duplicate would be a second entry); webhook ids are generated per message.
            webhooksReceived: receiver
              .at(path)
              .map((r) => normalizer(messages)(r.body))
              .sort(),
          }),
          stop: () => notifier.stop(),
        };
      },
    });

    expect(report.stats.redelivered).toBeGreaterThanOrEqual(messages.length);
    console.log(`duplicate delivery (notifier merchant-events): ${report.summary}`);
  });
});
