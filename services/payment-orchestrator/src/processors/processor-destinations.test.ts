import { PROCESSOR_DESTINATIONS } from '@vaultline/contracts';
import { hostModeCheck } from './processor-destinations';

const assertHostServesMode = hostModeCheck(PROCESSOR_DESTINATIONS);

describe("the egress check of a payment's later calls (captures, voids, refunds, status reads)", () => {
  it.each([
    ['test', 'https://abc123-checkout-live.adyenpayments.com/checkout/v69/payments/PSP/captures'],
    ['test', 'https://api.checkout.com/payments/pay_1/captures'],
    ['test', 'https://pk123.api.checkout.com/payments/pay_1/voids'],
    ['live', 'https://checkout-test.adyen.com/v69/payments/PSP/captures'],
    ['live', 'https://api.sandbox.checkout.com/payments/pay_1/refunds'],
  ] as const)('when a %s payment would call %s, then it is refused with 403 before anything is sent', (mode, url) => {
    expect(() => assertHostServesMode(url, mode)).toThrow(expect.objectContaining({ status: 403, code: `destination_not_allowed_in_${mode}_mode` }));
  });

  it.each([
    ['test', 'https://checkout-test.adyen.com/v69/payments/PSP/captures'],
    ['test', 'https://api.sandbox.checkout.com/payments/pay_1/captures'],
    ['live', 'https://abc123-checkout-live.adyenpayments.com/checkout/v69/payments/PSP/captures'],
    ['live', 'https://api.checkout.com/payments/pay_1/captures'],
    ['live', 'https://psp.operator-allowed.example/v69/payments/PSP/captures'],
    ['test', 'https://api.stripe.com/v1/payment_intents/pi_1/capture'],
    ['live', 'https://api.stripe.com/v1/payment_intents/pi_1/capture'],
  ] as const)("when a %s payment calls %s (its own mode's host, or one of neither list), then it may go", (mode, url) => {
    expect(() => assertHostServesMode(url, mode)).not.toThrow();
  });
});
