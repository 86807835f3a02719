import { BlockList, isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';

/**
 * Which proxies in front of the gateway are trusted to say who the client is (TRUST_PROXY), as
 * express's 'trust proxy' setting: a number of hops, or the proxies' addresses.
 * - unset, `false` or `0`: nothing in front is trusted; the client is the socket's peer and any
 *   X-Forwarded-For it sends is ignored (a client cannot choose its own address).
 * - `N` (hops): N proxies stand in front (N=1: one load balancer); each appends the address it saw,
 *   so the client is the N-th address counted from the socket's peer.
 * - addresses: comma-separated IPs and CIDRs (`10.0.0.0/8, 2001:db8::/32`) and the names `loopback`,
 *   `linklocal`, `uniquelocal`; the client is the nearest address that is not one of them.
 * `true` (trust everything) is refused: it would let every client write its own address.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; proxies: BlockList };

export const TRUST_NO_PROXY: TrustProxy = { kind: 'none' };

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Parses TRUST_PROXY; throws an Error whose message says what is wrong (the config names the variable). */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const setting = (value ?? '').trim().toLowerCase();
  if (setting === '' || setting === 'false' || setting === '0') return TRUST_NO_PROXY;
  if (/^\d+$/.test(setting)) return { kind: 'hops', hops: Number(setting) };
  if (setting === 'true') throw new Error('must be a number of proxies or their addresses: true would let any client choose its own address');
  const proxies = new BlockList();
  for (const item of setting
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    for (const range of NAMED_RANGES[item] ?? [item]) addRange(proxies, range);
  }
  return { kind: 'addresses', proxies };
}

function addRange(proxies: BlockList, range: string): void {
  const [address = '', prefix, ...rest] = range.split('/');
  const family = isIP(address);
  const bits = family === 4 ? 32 : 128;
  if (family === 0 || rest.length > 0 || (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= bits))) {
    throw new Error(`"${range}" is neither a number of proxies, an IP address, a CIDR range nor loopback, linklocal or uniquelocal`);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) proxies.addAddress(address, type);
  else proxies.addSubnet(address, Number(prefix), type);
}

/** An IPv4 peer of a dual-stack socket shows as ::ffff:a.b.c.d: compare and report it as a.b.c.d. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * The client's address for a request that reached the gateway from `socketAddress` with the given
 * X-Forwarded-For. Walks from the socket's peer towards the client while the address at hand is a
 * trusted proxy; an entry that is not an IP address ends the walk at the last trusted one, so a
 * malformed header never becomes a key the client can vary.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trust: TrustProxy): string {
  const peer = plain(socketAddress ?? '') || 'unknown';
  if (trust.kind === 'none' || !forwardedFor) return peer;
  // Nearest last: [client?, proxy1, …, peer].
  const path = [
    ...forwardedFor
      .split(',')
      .map((entry) => plain(entry.trim()))
      .filter(Boolean),
    peer,
  ];
  const trusted = (address: string, distance: number) =>
    trust.kind === 'hops' ? distance < trust.hops : isIP(address) !== 0 && trust.proxies.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  for (let index = path.length - 1, distance = 0; index > 0; index--, distance++) {
    if (!trusted(path[index]!, distance)) return path[index]!;
    if (isIP(path[index - 1]!) === 0) return path[index]!;
  }
  return path[0]!;
}

const remembered = new WeakMap<Request, string>();

/** Edge middleware: works out the client's address once per request under the TRUST_PROXY rule. */
export function rememberClientAddress(trust: TrustProxy): RequestHandler {
  return (req, _res, next) => {
    remembered.set(req, clientAddress(req.socket.remoteAddress, req.get('x-forwarded-for'), trust));
    next();
  };
}

/**
 * The client's address to hand to the services as the only X-Forwarded-For entry (the vault's
 * per-address checkout limit reads its first entry): as the edge worked it out, else the socket's peer.
 */
export function clientAddressOf(req: Request): string {
  return remembered.get(req) ?? clientAddress(req.socket.remoteAddress, undefined, TRUST_NO_PROXY);
}
