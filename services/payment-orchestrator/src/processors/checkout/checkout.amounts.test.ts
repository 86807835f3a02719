import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import { AmountNotSupported, amountProblem } from '../../domain/processor-port/processor-amounts';
import { checkoutAmounts } from './checkout.amounts';
import { checkoutDisputeSignal } from './checkout.dispute';
import { toCheckoutCaptureRequest, toCheckoutPaymentRequest, toCheckoutRefundRequest } from './checkout.mapper';
import { fromCheckoutWebhook } from './checkout.webhook';

/*
 * Pinned against Checkout.com's "Format the amount value" (formerly "Calculating the amount"),
 * https://www.checkout.com/docs/payments/accept-payments/format-the-amount-value: "the amount value must:
 * be greater than zero, not contain decimals, not contain more than nine digits"; "The full amount" for
 * BIF DJF GNF ISK JPY KMF KRW PYG RWF UGX VUV VND XAF XOF XPF; "The amount divided by 1000" (BHD IQD JOD
 * KWD LYD OMR TND): "The last digit must always be a 0. For example, an amount value of 1001 is invalid";
 * "The amount divided by 100" for the others, CLP among them (ISO 4217: no decimals).
 */

const credentials = {
  secret_key: 'sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e',
  processing_channel_id: 'pc_q4dbxom5jbgudnjzjpz7j2z6uq',
  webhook_secret: 'whsec-10123456789abcdefghijklmnopqrstu',
};
const payment = (amount: number, currency_code: string) => authorizationInputOf({ amount, currency_code });
const amountOf = (body: unknown) => (body as { amount: number }).amount;

describe('amounts at Checkout.com (its amount formats)', () => {
  it.each([
    ['ISK', 2790, 2790, 'the full amount'],
    ['CLP', 5000, 500000, 'divided by 100, though ISO 4217 has no decimals'],
    ['CVE', 12345, 12345, 'divided by 100'],
    ['MGA', 150050, 150050, 'divided by 100'],
    ['JPY', 500, 500, 'the full amount'],
    ['KWD', 1230, 1230, 'divided by 1000, last digit 0'],
    ['HUF', 150000, 150000, 'divided by 100'],
    ['EUR', 1999, 1999, 'divided by 100'],
  ])(
    'when a %s payment of %i goes to Checkout.com, then its amount is %i (%s), and the payment_captured, payment_refunded and dispute webhooks of that value come back as the same amount',
    (currency, amount, checkoutValue) => {
      expect(amountOf(toCheckoutPaymentRequest(payment(amount, currency), credentials).body)).toBe(checkoutValue);
      expect(amountOf(toCheckoutCaptureRequest(payment(amount, currency), credentials, 'pay_1', amount).body)).toBe(checkoutValue);
      expect(amountOf(toCheckoutRefundRequest(payment(amount, currency), credentials, 'pay_1', 'r1').body)).toBe(checkoutValue);
      const data = { id: 'pay_1', action_id: 'act_1', reference: 'p1', amount: checkoutValue, currency };
      expect(fromCheckoutWebhook({ id: 'evt_1', type: 'payment_captured', data })).toMatchObject({ kind: 'capture_succeeded', amount });
      expect(fromCheckoutWebhook({ id: 'evt_2', type: 'payment_refunded', data })).toMatchObject({ kind: 'refund_succeeded', amount });
      expect(
        checkoutDisputeSignal({
          type: 'dispute_received',
          data: { id: 'dsp_1', amount: checkoutValue, currency, payment_reference: 'p1', category: 'fraudulent' },
        }),
      ).toMatchObject({ amount, currency_code: currency });
    },
  );

  it("when KWD 1234 (1.234) is to be sent, then Checkout.com's last-digit rule refuses it, naming the nearest amounts; the mapper never sends it", () => {
    expect(amountProblem(checkoutAmounts, 1234, 'KWD', 'charge')).toBe(
      'Checkout.com cannot take amount 1234 (KWD 1.234): Checkout.com needs the last digit of amounts divided by 1000 to be 0, so the amount must be a multiple of 10 in minor units, such as 1230 or 1240.',
    );
    expect(() => toCheckoutPaymentRequest(payment(1234, 'KWD'), credentials)).toThrow(AmountNotSupported);
    expect(() => toCheckoutRefundRequest(payment(1234, 'KWD'), credentials, 'pay_1', 'r1')).toThrow(AmountNotSupported);
  });

  it("when an amount has more than nine digits in Checkout.com's units, then it is refused (CLP 10,000,000 pesos is 1000000000 there)", () => {
    expect(amountProblem(checkoutAmounts, 999_999_999, 'EUR', 'charge')).toBeNull();
    expect(amountProblem(checkoutAmounts, 1_000_000_000, 'EUR', 'charge')).toBe(
      'Checkout.com cannot take amount 1000000000 (EUR 10000000.00): Checkout.com takes amount values of at most nine digits (999999999 in its units of EUR).',
    );
    expect(amountProblem(checkoutAmounts, 10_000_000, 'CLP', 'charge')).toMatch(
      /^Checkout\.com cannot take amount 10000000 \(CLP 10000000\): .*at most nine digits/,
    );
  });

  it('when a webhook carries no currency, then its amount is not guessed (null)', () => {
    expect(
      fromCheckoutWebhook({ id: 'evt_3', type: 'payment_captured', data: { id: 'pay_1', action_id: 'act_1', reference: 'p1', amount: 500000 } }),
    ).toMatchObject({ amount: null });
  });
});
