import { eventMessage } from '@vaultline/bus';
import { paymentCapturedV1, paymentProcessingV1, type EventData } from '@vaultline/contracts';
import { FLOW_BUCKETS, hashedBucket, MetricsRegistry } from '@vaultline/metrics';
import { countPaymentStatuses } from './payment-status-metrics';

/** The event data of payment pay_1 in `status` and `flow` (the rest does not matter here). */
const payment = (status: EventData<typeof paymentProcessingV1>['status'], flow: string | null): EventData<typeof paymentProcessingV1> => ({
  payment_id: 'pay_1',
  status,
  flow,
  amount: { requested: 1_000 },
  currency_code: 'EUR',
  use_case: 'one_off',
  reference: null,
  credential_id: null,
  initial_payment_id: null,
  failure_reason: null,
  masked_account_number: null,
});

describe('payments by status and flow', () => {
  it('when payment events leave the outbox, then vaultline_payments_total counts them by status and flow (a merchant flow in its hashed bucket), "none" before a flow is chosen, and ignores other events', async () => {
    const registry = new MetricsRegistry();
    const count = countPaymentStatuses(registry.forService('payment-orchestrator'));

    count([
      eventMessage(paymentProcessingV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('processing', null) }),
      eventMessage(paymentCapturedV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('captured', 'cards-eu') }),
      eventMessage(paymentCapturedV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('captured', 'simulator_manual_capture') }),
      {
        topic: 'vault.tokens',
        key: 'tok_1',
        value: '{"type":"token.created","data":{"token_id":"tok_1","status":"active"}}',
        headers: { 'event-type': 'token.created' },
      },
    ]);

    const text = await registry.render();
    expect(text).toContain('vaultline_payments_total{service="payment-orchestrator",status="processing",flow="none"} 1');
    expect(text).toContain(
      `vaultline_payments_total{service="payment-orchestrator",status="captured",flow="${hashedBucket('cards-eu', FLOW_BUCKETS, 'custom-')}"} 1`,
    );
    expect(text).toContain('vaultline_payments_total{service="payment-orchestrator",status="captured",flow="simulator_manual_capture"} 1');
    expect(text).not.toContain('cards-eu');
    expect(text).not.toContain('active');
  });

  it('when merchants use 500 flows of their own, then the payments counter holds at most one series per built-in flow and per bucket', async () => {
    const registry = new MetricsRegistry();
    const count = countPaymentStatuses(registry.forService('payment-orchestrator'));

    count(
      Array.from({ length: 500 }, (_, index) =>
        eventMessage(paymentCapturedV1, { scope: { merchantId: `m_${index % 7}`, mode: 'test' }, data: payment('captured', `flow-${index}`) }),
      ),
    );

    const flows = new Set([...(await registry.render()).matchAll(/vaultline_payments_total\{[^}]*flow="([^"]+)"/g)].map((match) => match[1]));
    expect(flows.size).toBe(FLOW_BUCKETS);
    expect([...flows].every((flow) => /^custom-\d\d$/.test(flow!))).toBe(true);
  });
});
