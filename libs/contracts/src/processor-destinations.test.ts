import { cardFieldsForPath, destinationsOf, PROCESSOR_DESTINATIONS, STRIPE_PAYMENT_INTENTS, urlMatchesDestination } from './processor-destinations';

describe('the processor destination catalog and its one matcher', () => {
  it.each([
    ['https://checkout-test.adyen.com/v69/payments', 'https://checkout-test.adyen.com/v69/payments'],
    ['https://*-checkout-live.adyenpayments.com/checkout/v69/payments', 'https://1797a841fbb37ca7-adyendemo-checkout-live.adyenpayments.com/checkout/v69/payments'],
    ['https://*.api.checkout.com/payments/{id}/captures', 'https://pk123.api.checkout.com/payments/pay_abc123/captures'],
    ['https://api.stripe.com/v1/payment_intents/{intent}/capture', 'https://api.stripe.com/v1/payment_intents/pi_3MtwBwLkdIwHu7ix28a3tqPa/capture'],
  ])('when %s is the pattern, then %s matches', (pattern, url) => {
    expect(urlMatchesDestination(pattern, url)).toBe(true);
  });

  it.each([
    ['a longer path', 'https://api.stripe.com/v1/payment_intents', 'https://api.stripe.com/v1/payment_intents/pi_1'],
    ['an id segment holding a slash', 'https://api.stripe.com/v1/payment_intents/{intent}/capture', 'https://api.stripe.com/v1/payment_intents/pi_1/x/capture'],
    ['an id segment with a dot', 'https://api.stripe.com/v1/payment_intents/{intent}', 'https://api.stripe.com/v1/payment_intents/..'],
    ['a wildcard label holding a dot', 'https://*.api.checkout.com/payments', 'https://evil.com.api.checkout.com/payments'],
    ['another port', 'https://api.stripe.com/v1/refunds', 'https://api.stripe.com:8443/v1/refunds'],
    ['plain http', 'https://api.stripe.com/v1/refunds', 'http://api.stripe.com/v1/refunds'],
    ['a query string', 'https://api.stripe.com/v1/refunds', 'https://api.stripe.com/v1/refunds?expand=charge'],
    ['a look-alike host', 'https://api.stripe.com/v1/refunds', 'https://api.stripe.com.evil.com/v1/refunds'],
  ])('when the URL has %s, then it does not match', (_what, pattern, url) => {
    expect(urlMatchesDestination(pattern, url)).toBe(false);
  });

  it('when a processor is looked up, then it has a payments URL, and every entry that takes card data is a payments (or payment-method) URL', () => {
    for (const processor of new Set(PROCESSOR_DESTINATIONS.map((entry) => entry.processor))) {
      expect(destinationsOf(processor).some((entry) => entry.purpose === 'payments')).toBe(true);
    }
    expect(PROCESSOR_DESTINATIONS.filter((entry) => entry.card !== null).every((entry) => entry.purpose === 'payments' || entry.purpose === 'payment_methods')).toBe(true);
  });

  it('when an operator lists a stand-in path without card fields, then the fields are those of the catalog entry its path ends with', () => {
    expect(cardFieldsForPath('/stand-in/v1/payment_intents')).toBe(STRIPE_PAYMENT_INTENTS);
    expect(cardFieldsForPath('/adyen/v69/payments')?.fields).toHaveProperty(['paymentMethod.number'], 'account_number');
    expect(cardFieldsForPath('/acme/payments')?.typing).toBe('integer-expiry');
    expect(cardFieldsForPath('/v1/refunds')).toBeNull();
  });
});
