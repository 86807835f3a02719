import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cardFieldsForPath, PROCESSOR_DESTINATIONS, PROCESSOR_MANIFESTS, urlMatchesDestination } from './processor-destinations';
import { processorManifest } from './processor-manifest';

const FOLDERS = join(__dirname, '../../../../services/payment-orchestrator/src/processors');

describe('the processor destination catalog and its one matcher', () => {
  it.each([
    ['https://checkout-test.adyen.com/v69/payments', 'https://checkout-test.adyen.com/v69/payments'],
    [
      'https://*-checkout-live.adyenpayments.com/checkout/v69/payments',
      'https://1797a841fbb37ca7-adyendemo-checkout-live.adyenpayments.com/checkout/v69/payments',
    ],
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
      expect(PROCESSOR_DESTINATIONS.some((entry) => entry.processor === processor && entry.purpose === 'payments')).toBe(true);
    }
    expect(
      PROCESSOR_DESTINATIONS.filter((entry) => entry.card !== null).every((entry) => entry.purpose === 'payments' || entry.purpose === 'payment_methods'),
    ).toBe(true);
  });

  it('when an operator lists a stand-in path without card fields, then the fields are those of the catalog entry its path ends with', () => {
    expect(cardFieldsForPath('/stand-in/v1/payment_intents')?.fields).toHaveProperty(['payment_method_data[card][number]'], 'account_number');
    expect(cardFieldsForPath('/adyen/v69/payments')?.fields).toHaveProperty(['paymentMethod.number'], 'account_number');
    expect(cardFieldsForPath('/acme/payments')?.typing).toBe('integer-expiry');
    expect(cardFieldsForPath('/v1/refunds')).toBeNull();
  });

  it("when the catalog is read, then it holds every processor folder's manifest.json as it is written there, each valid, with destination names unique", () => {
    const folders = readdirSync(FOLDERS, { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && readdirSync(join(FOLDERS, entry.name)).includes('manifest.json'),
    );
    const written = folders.map((entry) => processorManifest(JSON.parse(readFileSync(join(FOLDERS, entry.name, 'manifest.json'), 'utf8'))));
    expect(PROCESSOR_MANIFESTS).toEqual(written);
    const names = PROCESSOR_DESTINATIONS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('when a manifest names a secret field it does not have, or a host of an API it does not describe, then loading it fails naming the field', () => {
    const [first] = PROCESSOR_MANIFESTS.filter((manifest) => manifest.hosts.length > 0);
    expect(() => processorManifest({ ...first, credentials: { ...first!.credentials, secret_field: 'nope' } })).toThrow(
      /credentials\.secret_field: nope is not one of its credentials/,
    );
    expect(() => processorManifest({ ...first, hosts: [{ ...first!.hosts[0], api: 'nope' }] })).toThrow(/hosts\.0\.api: no API nope/);
  });
});
