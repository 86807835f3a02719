import { destinationPattern, destinationsOfManifest, hostMatches, urlMatchesDestination, type ProcessorDestination } from '@vaultline/contracts';
import { ForbiddenError, type Mode } from '@vaultline/core';
import type { ProcessorDestinationCheck } from '../domain/processor-accounts/processor-account-ports';
import type { ProcessorPlugins } from './processor-plugin';

/** Every destination the plugins' manifests name (the catalog the forwarder allows as well). */
export const destinationsOfPlugins = (plugins: ProcessorPlugins): ProcessorDestination[] =>
  Object.values(plugins).flatMap((plugin) => destinationsOfManifest(plugin.manifest));

/**
 * Whether a processor account's payments URL is a destination the forwarder allows: a payments entry of
 * a plugin's destinations (the catalog's one matcher) or one the operator listed in
 * FORWARD_EXTRA_DESTINATIONS (exactly). A merchant's own forward destinations are not consulted: a
 * processor account reaches only what the operator allowed.
 */
export function processorDestinationCheck(plugins: ProcessorPlugins, extraDestinations: readonly string[]): ProcessorDestinationCheck {
  const payments = destinationsOfPlugins(plugins)
    .filter((entry) => entry.purpose === 'payments')
    .map((entry) => entry.url);
  return async (_merchantId, paymentsUrl) => extraDestinations.includes(paymentsUrl) || payments.some((pattern) => urlMatchesDestination(pattern, paymentsUrl));
}

/** Refuses a call of a payment of one mode to a processor host of the other mode. */
export type HostModeCheck = (url: string, mode: Mode) => void;

/**
 * Checked at the egress of every call a payment makes after its authorization (captures, voids, status
 * reads), as the forwarder checks the card-data calls: the URL's host must not be a processor host of the
 * other mode (an entry open to both modes is in neither list: the key decides there). Hosts outside both
 * lists (an operator-allowed base URL, a stand-in) are the account's own.
 */
export function hostModeCheck(destinations: readonly ProcessorDestination[]): HostModeCheck {
  const hostsOf = (mode: Mode): string[] => [
    ...new Set(destinations.filter((entry) => entry.mode === mode).map((entry) => destinationPattern(entry.url).host)),
  ];
  const hosts: Record<Mode, readonly string[]> = { test: hostsOf('test'), live: hostsOf('live') };
  return (url, mode) => {
    const { hostname, host } = new URL(url);
    const other: Mode = mode === 'test' ? 'live' : 'test';
    if (hosts[other].some((pattern) => hostMatches(pattern, hostname))) {
      throw new ForbiddenError(`A ${mode}-mode payment cannot call the processor's ${other} host ${host}.`, `destination_not_allowed_in_${mode}_mode`);
    }
  };
}
