import { ForbiddenError, type Mode } from '@vaultline/core';
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

/** The processors' hosts of each mode: a call of a payment of one mode never goes to a host of the other. */
const HOSTS_OF_MODE: Record<Mode, readonly string[]> = {
  test: ['checkout-test.adyen.com', 'api.sandbox.checkout.com', '*.api.sandbox.checkout.com'],
  live: ['*-checkout-live.adyenpayments.com', 'api.checkout.com', '*.api.checkout.com'],
};

/**
 * Checked at the egress of every call a payment makes after its authorization (captures, voids, status
 * reads), as the forwarder checks the card-data calls: the URL's host must not be a processor host of the
 * other mode. Hosts outside both lists (an operator-allowed base URL, a stand-in) are the account's own.
 */
export function assertHostServesMode(url: string, mode: Mode): void {
  const host = new URL(url).host;
  const other: Mode = mode === 'test' ? 'live' : 'test';
  if (HOSTS_OF_MODE[other].some((pattern) => matches(`https://${pattern}`, `https://${host}`))) {
    throw new ForbiddenError(`A ${mode}-mode payment cannot call the processor's ${other} host ${host}.`, `destination_not_allowed_in_${mode}_mode`);
  }
}
