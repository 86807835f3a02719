import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import { AmountNotSupported, amountProblem } from '../../domain/processor-port/processor-amounts';
import { stripeAmounts } from './stripe.amounts';
import { stripeDisputeSignal } from './stripe.dispute';
import { toStripeCaptureRequest, toStripePaymentIntentRequest, toStripeRefundRequest } from './stripe.mapper';

/*
 * Pinned against Stripe's "Supported currencies", https://docs.stripe.com/currencies:
 * - "Zero-decimal currencies": BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF — "still
 *   provide amounts as an integer but without multiplying by 100" (MGA has 2 decimals in ISO 4217).
 * - "Three-decimal currencies": BHD JOD KWD OMR TND — "these API calls require the least-significant (last)
 *   digit to be 0 … 5.124 KWD must be rounded to 5120 or 5130".
 * - "Special cases": ISK — "you must pass in amounts with two decimals … to charge 5 ISK, provide an amount
 *   value of 500. The amount value must be evenly divisible by 100" (also support.stripe.com, "Deprecation of
 *   fractional ISK charges and refunds": "ISK will remain a two-decimal currency in the Stripe API"); UGX
 *   likewise; HUF and TWD are zero-decimal "for payouts, even though you can charge two-decimal amounts".
 * - "Minimum and maximum charge amounts": USD $0.50, EUR €0.50, GBP £0.30, JPY ¥50, HUF 175.00 Ft, …; "up to
 *   twelve digits for IDR … and up to eight digits for all other currencies (… 99999999 for … 999,999.99 USD)".
 */

const credentials = { secret_key: 'sk_test_51Nv0', webhook_secret: 'whsec_10123456789abcdefghijklmnopqrstu' };
const payment = (amount: number, currency_code: string) => authorizationInputOf({ amount, currency_code });
const sent = (amount: number, currency: string) =>
  Number((toStripePaymentIntentRequest(payment(amount, currency), credentials).body as Record<string, string>).amount);
const disputed = (value: number, currency: string) =>
  stripeDisputeSignal('charge.dispute.created', {
    id: 'dp_1',
    status: 'needs_response',
    amount: value,
    currency: currency.toLowerCase(),
    payment_intent: 'pi_1',
    reason: 'fraudulent',
  })!.amount;

describe('amounts at Stripe (its currency table)', () => {
  it.each([
    ['ISK', 2790, 279000, 'a special case: two decimals, always 00'],
    ['CLP', 5000, 5000, 'zero-decimal at Stripe and in ISO 4217'],
    ['CVE', 12345, 12345, 'two decimals at both'],
    ['MGA', 150000, 1500, 'zero-decimal at Stripe, two decimals in ISO 4217'],
    ['JPY', 500, 500, 'zero-decimal at both'],
    ['KWD', 1230, 1230, 'three decimals with the last digit 0'],
    ['HUF', 150000, 150000, 'charged with two decimals (zero-decimal only for payouts)'],
    ['EUR', 1999, 1999, 'two decimals at both'],
  ])(
    "when a %s payment of %i goes to Stripe, then the PaymentIntent says %i (%s), and Stripe's dispute of that value comes back as the same amount",
    (currency, amount, stripeValue) => {
      expect(sent(amount, currency)).toBe(stripeValue);
      expect(disputed(stripeValue, currency)).toBe(amount);
    },
  );

  it('when a capture or a refund is mapped, then its amount is converted the same way (MGA 150000 → 1500, ISK 2790 → 279000)', () => {
    const capture = (amount: number, currency: string) =>
      (toStripeCaptureRequest(payment(amount, currency), credentials, 'pi_1').body as Record<string, string>).amount_to_capture;
    const refund = (amount: number, currency: string) =>
      (toStripeRefundRequest(payment(amount, currency), credentials, 'pi_1', 'r1').body as Record<string, string>).amount;
    expect([capture(150000, 'MGA'), capture(2790, 'ISK'), refund(150000, 'MGA'), refund(2790, 'ISK'), refund(1230, 'KWD')]).toEqual([
      '1500',
      '279000',
      '1500',
      '279000',
      '1230',
    ]);
  });

  it("when KWD 1234 (1.234) is to be sent, then Stripe's last-digit rule refuses it and names the nearest amounts it takes, and the mapper never sends it", () => {
    expect(amountProblem(stripeAmounts, 1234, 'KWD', 'charge')).toBe(
      'Stripe cannot take amount 1234 (KWD 1.234): Stripe needs the last digit of three-decimal amounts to be 0 (its three-decimal currencies), so the amount must be a multiple of 10 in minor units, such as 1230 or 1240.',
    );
    expect(() => toStripePaymentIntentRequest(payment(1234, 'KWD'), credentials)).toThrow(AmountNotSupported);
  });

  it('when MGA 150050 (1500.50 ariary) is to be sent, then it is refused: Stripe takes MGA in whole ariary', () => {
    expect(amountProblem(stripeAmounts, 150050, 'MGA', 'charge')).toBe(
      'Stripe cannot take amount 150050 (MGA 1500.50): Stripe takes MGA with 0 decimals where ISO 4217 has 2, so the amount must be a multiple of 100 in minor units, such as 150000 or 150100.',
    );
  });

  it("when a charge is below Stripe's minimum for its currency, then it is refused naming the minimum; a refund of that amount is not (the minimum is a charge's)", () => {
    expect(amountProblem(stripeAmounts, 49, 'EUR', 'charge')).toBe(
      'Stripe cannot take amount 49 (EUR 0.49): its minimum charge in EUR is 0.50 (50 in minor units).',
    );
    expect(amountProblem(stripeAmounts, 49, 'JPY', 'charge')).toBe(
      'Stripe cannot take amount 49 (JPY 49): its minimum charge in JPY is 50 (50 in minor units).',
    );
    expect([amountProblem(stripeAmounts, 50, 'EUR', 'charge'), amountProblem(stripeAmounts, 29, 'GBP', 'refund')]).toEqual([null, null]);
  });

  it("when an amount has more than eight digits in Stripe's units (twelve for IDR), then it is refused", () => {
    expect(amountProblem(stripeAmounts, 99_999_999, 'EUR', 'charge')).toBeNull();
    expect(amountProblem(stripeAmounts, 100_000_000, 'EUR', 'charge')).toBe(
      'Stripe cannot take amount 100000000 (EUR 1000000.00): Stripe takes amount values of at most eight digits (twelve for IDR) (99999999 in its units of EUR).',
    );
    // ISK 1,000,000 krónur is 100000000 in Stripe's two-decimal units: nine digits.
    expect(amountProblem(stripeAmounts, 1_000_000, 'ISK', 'charge')).toMatch(/^Stripe cannot take amount 1000000 \(ISK 1000000\): .*at most eight digits/);
    expect(amountProblem(stripeAmounts, 999_999_999_999, 'IDR', 'charge')).toBeNull();
  });
});
