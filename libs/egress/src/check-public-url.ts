import { EgressBlockedError } from './egress-errors';
import { resolveCheckedAddresses, systemResolver, type AddressPolicy, type HostResolver } from './address-guard';

export interface UrlPolicy {
  allowPrivate: boolean;
  httpsOnly: boolean;
  /** Only loopback addresses (http or https): a receiver on this machine (the notifier's test-mode endpoints on a loopback service). */
  loopbackOnly?: boolean;
}

/** The address policy a URL policy stands for. */
export const addressPolicyOf = (policy: Pick<UrlPolicy, 'allowPrivate' | 'loopbackOnly'>): AddressPolicy =>
  policy.loopbackOnly ? 'loopback' : policy.allowPrivate ? 'any' : 'public';

/** Parses and checks the parts of a URL that need no DNS: scheme and userinfo. */
export function parseEgressUrl(url: string, policy: Pick<UrlPolicy, 'httpsOnly'>): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EgressBlockedError('invalid_url', 'The destination URL is not a valid absolute URL.');
  }
  const allowedSchemes = policy.httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!allowedSchemes.includes(parsed.protocol)) {
    throw new EgressBlockedError(
      'scheme_not_allowed',
      policy.httpsOnly ? 'Only https destinations are allowed.' : 'Only http and https destinations are allowed.',
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new EgressBlockedError('userinfo_not_allowed', 'Credentials in the destination URL are not allowed.');
  }
  if (parsed.hostname === '') throw new EgressBlockedError('invalid_url', 'The destination URL has no host.');
  return parsed;
}

/**
 * Validates a URL a tenant gives us (webhook endpoint, import source) at the time it is saved.
 * The egress client checks again at connect time, on the address it really connects to;
 * this early check only gives the tenant a prompt error.
 */
export async function checkPublicUrl(url: string, options: UrlPolicy & { resolve?: HostResolver }): Promise<void> {
  const parsed = parseEgressUrl(url, options);
  await resolveCheckedAddresses(parsed.hostname, addressPolicyOf(options), options.resolve ?? systemResolver);
}
