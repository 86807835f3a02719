import type { EventData } from '@vaultline/contracts';
import type { paymentCapturedV1 } from '@vaultline/contracts';

type PaymentData = EventData<typeof paymentCapturedV1>;

/** Payment event data with defaults; override what a test cares about. */
export function aPayment(overrides: Partial<PaymentData> = {}): PaymentData {
  return {
    payment_id: 'pay_0001',
    status: 'captured',
    amount: { requested: 1500, authorized: 1500, captured: 1500 },
    currency_code: 'EUR',
    use_case: 'ONE_OFF',
    reference: 'order-42',
    credential_id: null,
    initial_payment_id: null,
    flow: 'simulator',
    failure_reason: null,
    masked_account_number: '424242******4242',
    ...overrides,
  };
}
