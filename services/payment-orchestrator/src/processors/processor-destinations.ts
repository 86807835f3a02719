import { destinationPattern, hostMatches, PROCESSOR_DESTINATIONS, urlMatchesDestination } from '@vaultline/contracts';
import { ForbiddenError, type Mode } from '@vaultline/core';
import type { ProcessorDestinationCheck } from '../domain/ports';

/** The catalog's payments URLs (libs/contracts processor-destinations.ts, which the forwarder allows as well). */
const PAYMENTS_PATTERNS = PROCESSOR_DESTINATIONS.filter((entry) => entry.purpose === 'payments').map((entry) => entry.url);

/**
 * Whether a processor account's payments URL is a destination the forwarder allows: one of the catalog's
 * (its one matcher) or one the operator listed in FORWARD_EXTRA_DESTINATIONS (exactly). A merchant's own
 * forward destinations are not consulted: a processor account reaches only what the operator allowed.
 */
export function processorDestinationCheck(extraDestinations: readonly string[]): ProcessorDestinationCheck {
  return async (_merchantId, paymentsUrl) => extraDestinations.includes(paymentsUrl) || PAYMENTS_PATTERNS.some((pattern) => urlMatchesDestination(pattern, paymentsUrl));
}

/** The catalog's hosts of each mode (an entry open to both modes is in neither list: the key decides there). */
const hostsOfMode = (mode: Mode): string[] => [...new Set(PROCESSOR_DESTINATIONS.filter((entry) => entry.mode === mode).map((entry) => destinationPattern(entry.url).host))];
const HOSTS_OF_MODE: Record<Mode, readonly string[]> = { test: hostsOfMode('test'), live: hostsOfMode('live') };

/**
 * Checked at the egress of every call a payment makes after its authorization (captures, voids, status
 * reads), as the forwarder checks the card-data calls: the URL's host must not be a processor host of the
 * other mode. Hosts outside both lists (an operator-allowed base URL, a stand-in) are the account's own.
 */
export function assertHostServesMode(url: string, mode: Mode): void {
  const { hostname, host } = new URL(url);
  const other: Mode = mode === 'test' ? 'live' : 'test';
  if (HOSTS_OF_MODE[other].some((pattern) => hostMatches(pattern, hostname))) {
    throw new ForbiddenError(`A ${mode}-mode payment cannot call the processor's ${other} host ${host}.`, `destination_not_allowed_in_${mode}_mode`);
  }
}
