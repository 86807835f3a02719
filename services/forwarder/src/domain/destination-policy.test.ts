import { PROCESSOR_DESTINATIONS } from '@vaultline/contracts';
import { catalogRules, resolveDestination, ruleFromUrl } from './destination-policy';

const BUILT_IN_DESTINATIONS = catalogRules(PROCESSOR_DESTINATIONS);
import { DestinationNotAllowedError } from './forward-errors';

const rules = [
  ...BUILT_IN_DESTINATIONS,
  ruleFromUrl('extra', 'http://127.0.0.1:4010/stand-in/payments', true, { catalog: PROCESSOR_DESTINATIONS }),
  ruleFromUrl('merchant', 'https://allowed.example.com/pay', false),
];

describe('destination policy', () => {
  it.each([
    'https://checkout-test.adyen.com/v69/payments',
    'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v69/payments'.toLowerCase(),
    'https://api.sandbox.checkout.com/payments',
    'https://abc123.api.sandbox.checkout.com/payments',
    'https://api.checkout.com/payments',
    'https://api.stripe.com/v1/payment_methods',
    'http://127.0.0.1:4010/stand-in/payments',
    'https://allowed.example.com/pay',
    'https://allowed.example.com/pay?expand=1',
  ])('when the destination is %s, then it is allowed', (url) => {
    expect(resolveDestination(url, rules).url.href).toBe(url);
  });

  it.each([
    ['a look-alike host with the allowed name as prefix', 'https://allowed.example.com.evil.com/pay'],
    ['userinfo naming the allowed host', 'https://allowed.example.com@evil.com/pay'],
    ['userinfo before the allowed host', 'https://allowed@allowed.example.com/pay'],
    ['an encoded dot in the path', 'https://api.stripe.com/v1/%2e%2e/payment_methods'],
    ['an encoded slash', 'https://api.stripe.com/v1%2Fpayment_methods'],
    ['a doubled slash', 'https://api.stripe.com//v1/payment_methods'],
    ['a dot segment', 'https://api.stripe.com/v1/./payment_methods'],
    ['path traversal', 'https://api.stripe.com/v1/x/../payment_methods'],
    ['a backslash', 'https://api.stripe.com\\@evil.com/v1/payment_methods'],
    ['a longer path with the allowed prefix', 'https://api.stripe.com/v1/payment_methods/pm_1/attach'],
    ['another path on the allowed host', 'https://api.stripe.com/v1/charges'],
    ['a trailing dot on the host', 'https://api.stripe.com./v1/payment_methods'],
    ['an upper-case host', 'https://API.stripe.com/v1/payment_methods'],
    ['a non-default port', 'https://api.stripe.com:8443/v1/payment_methods'],
    ['an explicit default port', 'https://api.stripe.com:443/v1/payment_methods'],
    ['plain http to a catalog host', 'http://api.stripe.com/v1/payment_methods'],
    ['an IPv4 literal', 'https://52.1.2.3/v1/payment_methods'],
    ['a shortened loopback IP', 'http://127.1:4010/stand-in/payments'],
    ['a decimal IP', 'http://2130706433:4010/stand-in/payments'],
    ['an octal IP', 'http://0177.0.0.1:4010/stand-in/payments'],
    ['a hex IP', 'http://0x7f.0.0.1:4010/stand-in/payments'],
    ['an IPv6 loopback', 'http://[::1]:4010/stand-in/payments'],
    ['an IPv4-mapped IPv6 address', 'http://[::ffff:127.0.0.1]:4010/stand-in/payments'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data'],
    ['a wildcard label with a dot', 'https://evil.com.api.checkout.com/payments'],
    ['a fragment', 'https://api.stripe.com/v1/payment_methods#x'],
    ['a CR/LF', 'https://api.stripe.com/v1/payment_methods\r\nX-Injected: 1'],
    ['another scheme', 'ftp://api.stripe.com/v1/payment_methods'],
    ['a relative URL', '/v1/payment_methods'],
  ])('when the destination has %s, then it is refused with destination_not_allowed', (_what, url) => {
    const error = (() => {
      try {
        resolveDestination(url, rules);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DestinationNotAllowedError);
    expect((error as DestinationNotAllowedError).status).toBe(403);
  });

  it('when a merchant destination is an IP literal, then it cannot be added', () => {
    expect(() => ruleFromUrl('m', 'https://52.1.2.3/pay', false)).toThrow(DestinationNotAllowedError);
  });
});
