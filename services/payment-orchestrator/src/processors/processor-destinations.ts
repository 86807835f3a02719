import type { ProcessorDestinationCheck } from '../domain/ports';

/**
 * The forwarder's built-in destinations for the two processors (its catalog: destination-policy.ts), as
 * patterns: a leading `*-` or `*.` stands for one merchant-specific DNS label prefix, nothing else is a
 * wildcard and paths are never prefixes.
 */
const BUILT_IN = [
  'https://checkout-test.adyen.com/v69/payments',
  'https://*-checkout-live.adyenpayments.com/checkout/v69/payments',
  'https://api.sandbox.checkout.com/payments',
  'https://*.api.sandbox.checkout.com/payments',
  'https://api.checkout.com/payments',
  'https://*.api.checkout.com/payments',
];

function matches(pattern: string, url: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === url;
  const before = pattern.slice(0, star);
  const after = pattern.slice(star + 1);
  if (!url.startsWith(before) || !url.endsWith(after) || url.length <= before.length + after.length) return false;
  return /^[a-z0-9][a-z0-9-]*$/i.test(url.slice(before.length, url.length - after.length));
}

/**
 * Whether a processor account's payments URL is a destination the forwarder allows: the built-in ones or
 * one the operator listed in FORWARD_EXTRA_DESTINATIONS (exactly). A merchant's own forward destinations
 * are not consulted: a processor account reaches only what the operator allowed.
 */
export function processorDestinationCheck(extraDestinations: readonly string[]): ProcessorDestinationCheck {
  const allowed = [...BUILT_IN, ...extraDestinations];
  return async (_merchantId, paymentsUrl) => allowed.some((pattern) => matches(pattern, paymentsUrl));
}
