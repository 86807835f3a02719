import { eventMessage } from '@vaultline/bus';
import { paymentCapturedV1, paymentProcessingV1, type EventData } from '@vaultline/contracts';
import { MetricsRegistry } from '@vaultline/metrics';
import { countPaymentStatuses } from './payment-status-metrics';

/** The event data of payment pay_1 in `status` and `flow` (the rest does not matter here). */
const payment = (status: EventData<typeof paymentProcessingV1>['status'], flow: string | null): EventData<typeof paymentProcessingV1> => ({
  payment_id: 'pay_1', status, flow, amount: { requested: 1_000 }, currency_code: 'EUR', use_case: 'one_off',
  reference: null, credential_id: null, initial_payment_id: null, failure_reason: null, masked_account_number: null,
});

describe('payments by status and flow', () => {
  it('when payment events leave the outbox, then vaultline_payments_total counts them by status and flow, "none" before a flow is chosen, and ignores other events', async () => {
    const registry = new MetricsRegistry();
    const count = countPaymentStatuses(registry.forService('payment-orchestrator'));

    count([
      eventMessage(paymentProcessingV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('processing', null) }),
      eventMessage(paymentCapturedV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('captured', 'cards-eu') }),
      eventMessage(paymentCapturedV1, { scope: { merchantId: 'm_1', mode: 'test' }, data: payment('captured', 'cards-eu') }),
      { topic: 'vault.tokens', key: 'tok_1', value: '{"type":"token.created","data":{"token_id":"tok_1","status":"active"}}', headers: { 'event-type': 'token.created' } },
    ]);

    const text = await registry.render();
    expect(text).toContain('vaultline_payments_total{service="payment-orchestrator",status="processing",flow="none"} 1');
    expect(text).toContain('vaultline_payments_total{service="payment-orchestrator",status="captured",flow="cards-eu"} 2');
    expect(text).not.toContain('active');
  });
});
