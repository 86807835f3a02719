import { lookup } from 'node:dns/promises';
import { EgressBlockedError, EgressUnreachableError } from './egress-errors';
import { isIpLiteral, isPublicAddress } from './ip-address';

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
 * Resolves the host once and returns the addresses we may connect to. Every address must be public
 * (unless private ones are allowed for this host): one private answer blocks the whole host, so a
 * name that resolves to both a public and an internal address cannot be used to reach the internal one.
 */
export async function resolveCheckedAddresses(hostname: string, allowPrivate: boolean, resolve: HostResolver): Promise<string[]> {
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
  if (!allowPrivate && addresses.some((address) => !isPublicAddress(address))) {
    throw new EgressBlockedError('private_address', 'The destination resolves to a private, loopback or reserved address.');
  }
  return addresses;
}
