import { lookup } from 'node:dns/promises';
import { EgressBlockedError, EgressUnreachableError } from './egress-errors';
import { isIpLiteral, isLoopbackAddress, isPublicAddress } from './ip-address';

/** Resolves a host name to every address it has (A and AAAA). Injectable for tests. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Which addresses a host may resolve to: public ones only; any address (private ones allowed for this
 * host); or loopback ones only (a receiver on this very machine, nothing else).
 */
export type AddressPolicy = 'public' | 'any' | 'loopback';

/**
 * Resolves the host once and returns the addresses we may connect to. Every address must pass the
 * policy: one private answer blocks the whole host under 'public', one that is not loopback under
 * 'loopback', so a name that resolves to an allowed and a forbidden address cannot reach the forbidden one.
 */
export async function resolveCheckedAddresses(hostname: string, policy: AddressPolicy, resolve: HostResolver): Promise<string[]> {
  const host = stripBrackets(hostname);
  let addresses: string[];
  if (isIpLiteral(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new EgressUnreachableError('The destination host name could not be resolved.');
    }
    if (addresses.length === 0) throw new EgressUnreachableError('The destination host name has no addresses.');
  }
  if (policy === 'public' && addresses.some((address) => !isPublicAddress(address))) {
    throw new EgressBlockedError('private_address', 'The destination resolves to a private, loopback or reserved address.');
  }
  if (policy === 'loopback' && addresses.some((address) => !isLoopbackAddress(address))) {
    throw new EgressBlockedError('private_address', 'The destination must resolve to loopback addresses only (127.0.0.0/8, ::1).');
  }
  return addresses;
}
