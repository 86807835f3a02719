import { authorizationInputOf } from '../../../test/support/processor-fixtures';
import { AmountNotSupported, amountProblem } from '../../domain/processor-port/processor-amounts';
import { adyenAmounts } from './adyen.amounts';
import { adyenDisputeSignal } from './adyen.dispute';
import { toAdyenCaptureRequest, toAdyenPaymentRequest, toAdyenRefundRequest } from './adyen.mapper';
import { fromAdyenNotificationItem } from './adyen.notification';

/*
 * Pinned against Adyen's "Currency codes and minor units", https://docs.adyen.com/development-resources/currency-codes:
 * "For most APIs the value must be specified in minor units, given the number of decimals of the
 * currency"; its table lists CLP "2 (differs from standard)", CVE "0 (differs from standard)", JPY 0,
 * KWD 3, HUF 2, MGA 2; its note: "For CLP, CVE, IDR, and ISK the standard has a different number of
 * decimals than shown in our currency codes table … the decimals in the table on this page are leading"
 * (ISK 2, IDR 0). adyen/adyen-commercetools#1085: ISK 2790 is sent as 279000. The Checkout API's Amount
 * `value` is an int64 (Adyen/adyen-openapi, CheckoutService); Adyen publishes no minimum for card payments.
 */

const credentials = { api_key: 'AQE_test_key', merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };
const payment = (amount: number, currency_code: string) => authorizationInputOf({ amount, currency_code });
const valueOf = (body: unknown) => (body as { amount: { currency: string; value: number } }).amount;
const notified = (eventCode: string, value: number, currency: string) => ({
  amount: { value, currency },
  eventCode,
  merchantAccountCode: 'ShopECOM',
  merchantReference: 'p1',
  originalReference: 'PSP_AUTH',
  pspReference: 'PSP_1',
  success: 'true' as const,
});

describe('amounts at Adyen (its currency codes table)', () => {
  it.each([
    ['ISK', 2790, 279000, 'two decimals at Adyen, none in ISO 4217'],
    ['CLP', 5000, 500000, 'two decimals at Adyen, none in ISO 4217'],
    ['CVE', 12300, 123, 'no decimals at Adyen, two in ISO 4217'],
    ['MGA', 150050, 150050, 'two decimals at both'],
    ['JPY', 500, 500, 'no decimals at both'],
    ['KWD', 1234, 1234, 'three decimals at both, any last digit'],
    ['HUF', 150000, 150000, 'two decimals at both'],
    ['EUR', 1999, 1999, 'two decimals at both'],
  ])(
    'when a %s payment of %i goes to Adyen, then amount.value is %i (%s), and the CAPTURE, REFUND and dispute notifications of that value come back as the same amount',
    (currency, amount, adyenValue) => {
      expect(valueOf(toAdyenPaymentRequest(payment(amount, currency), credentials).body)).toEqual({ currency, value: adyenValue });
      expect(valueOf(toAdyenCaptureRequest(payment(amount, currency), credentials, 'PSP_AUTH').body)).toEqual({ currency, value: adyenValue });
      expect(valueOf(toAdyenRefundRequest(payment(amount, currency), credentials, 'PSP_AUTH', 'r1', null).body)).toEqual({ currency, value: adyenValue });
      expect(fromAdyenNotificationItem(notified('CAPTURE', adyenValue, currency))).toMatchObject({ kind: 'capture_succeeded', amount });
      expect(fromAdyenNotificationItem(notified('REFUND', adyenValue, currency))).toMatchObject({ kind: 'refund_succeeded', amount });
      expect(adyenDisputeSignal(notified('CHARGEBACK', adyenValue, currency))).toMatchObject({ amount, currency_code: currency });
    },
  );

  it('when CVE 12345 (123.45 escudos) is to be sent, then it is refused: Adyen takes CVE in whole escudos; the mapper never sends it', () => {
    expect(amountProblem(adyenAmounts, 12345, 'CVE', 'charge')).toBe(
      'Adyen cannot take amount 12345 (CVE 123.45): Adyen takes CVE with 0 decimals where ISO 4217 has 2, so the amount must be a multiple of 100 in minor units, such as 12300 or 12400.',
    );
    expect(() => toAdyenPaymentRequest(payment(12345, 'CVE'), credentials)).toThrow(AmountNotSupported);
  });

  it('when IDR has cents, then it is refused (Adyen takes IDR with no decimals); whole rupiah go as they are divided by 100', () => {
    expect(amountProblem(adyenAmounts, 1_500_050, 'IDR', 'charge')).toMatch(
      /^Adyen cannot take amount 1500050 \(IDR 15000.50\): Adyen takes IDR with 0 decimals where ISO 4217 has 2/,
    );
    expect(valueOf(toAdyenPaymentRequest(payment(1_500_000, 'IDR'), credentials).body)).toEqual({ currency: 'IDR', value: 15_000 });
  });

  it('when Adyen reports a CLP amount finer than a whole peso, then it is rounded to the nearest peso (ISO minor units hold no centavos)', () => {
    expect(fromAdyenNotificationItem(notified('CAPTURE', 500049, 'CLP'))).toMatchObject({ amount: 5000 });
    expect(fromAdyenNotificationItem(notified('CAPTURE', 500050, 'CLP'))).toMatchObject({ amount: 5001 });
  });

  it("when any amount up to the API's maximum goes to Adyen, then no minimum or maximum of Adyen refuses it (its value is an int64)", () => {
    expect([amountProblem(adyenAmounts, 1, 'EUR', 'charge'), amountProblem(adyenAmounts, 999_999_999_999, 'EUR', 'charge')]).toEqual([null, null]);
  });
});
