import { isIPv4, isIPv6 } from 'node:net';

/**
 * Classification of IP addresses for egress: only globally routable unicast addresses are public.
 * IPv4 ranges refused (research.md): 0/8, 10/8, 100.64/10 (CGNAT, includes 100.100.100.200 metadata),
 * 127/8, 169.254/16 (link-local, includes 169.254.169.254 metadata), 172.16/12, 192.0.0/24, 192.0.2/24,
 * 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4 and above.
 * IPv6: only 2000::/3 is public, minus documentation and Teredo; addresses embedding an IPv4
 * (::ffff:0:0/96 mapped, ::/96 compatible, 64:ff9b::/96 NAT64, 2002::/16 6to4) are judged by that IPv4.
 */
const PRIVATE_V4: ReadonlyArray<readonly [number, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
].map(([base, bits]) => [ipv4ToNumber(base as string), bits as number] as const);

function ipv4ToNumber(address: string): number {
  const parts = address.split('.').map(Number);
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

function isPublicV4Number(value: number): boolean {
  return !PRIVATE_V4.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (value & mask) >>> 0 === (base & mask) >>> 0;
  });
}

/** Eight 16-bit groups of an IPv6 address in any textual form (embedded dotted IPv4 included). */
export function parseIPv6(address: string): number[] | undefined {
  if (!isIPv6(address) || address.includes('%')) return undefined;
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return undefined;
    const v4 = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...tailGroups].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function embeddedV4(high: number, low: number): number {
  return ((high << 16) >>> 0) + low;
}

function isPublicV6(groups: number[]): boolean {
  const g = (i: number): number => groups[i]!;
  const firstSixZero = [0, 1, 2, 3, 4].every((i) => g(i) === 0);
  if (firstSixZero && g(5) === 0xffff) return isPublicV4Number(embeddedV4(g(6), g(7))); // ::ffff:a.b.c.d
  if (firstSixZero && g(5) === 0) return false; // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  if (g(0) === 0x64 && g(1) === 0xff9b && [2, 3, 4, 5].every((i) => g(i) === 0)) {
    return isPublicV4Number(embeddedV4(g(6), g(7))); // NAT64 well-known prefix
  }
  if ((g(0) & 0xe000) !== 0x2000) return false; // outside 2000::/3: ULA, link-local, multicast, reserved
  if (g(0) === 0x2001 && g(1) === 0x0db8) return false; // documentation
  if (g(0) === 0x2001 && g(1) === 0x0000) return false; // Teredo tunnels hide the real IPv4
  if (g(0) === 0x2002) return isPublicV4Number(embeddedV4(g(1), g(2))); // 6to4
  return true;
}

/** True only for a syntactically valid, globally routable unicast address. Anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return isPublicV4Number(ipv4ToNumber(bare));
  const groups = parseIPv6(bare);
  return groups ? isPublicV6(groups) : false;
}

/** True when the text is an IP literal (IPv6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIPv4(bare) || isIPv6(bare);
}

/**
 * True for an address of this machine's loopback interface: 127.0.0.0/8, ::1, and 127.0.0.0/8 mapped
 * into IPv6 (::ffff:127.x.y.z). Nothing else: not 0.0.0.0, not a private or link-local range.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return bare.split('.')[0] === '127';
  const groups = parseIPv6(bare);
  if (!groups) return false;
  const firstFiveZero = [0, 1, 2, 3, 4].every((i) => groups[i] === 0);
  if (firstFiveZero && groups[5] === 0 && groups[6] === 0 && groups[7] === 1) return true; // ::1
  return firstFiveZero && groups[5] === 0xffff && groups[6]! >> 8 === 127; // ::ffff:127.x.y.z
}

/**
 * True for a URL host that names this machine's loopback: \`localhost\` (and names under .localhost,
 * RFC 6761), a 127.0.0.0/8 literal or [::1]. The name alone decides nothing at connect time: the
 * egress client still checks every address it resolves to (policy 'loopback').
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIpLiteral(host) && isLoopbackAddress(host);
}
