import { clientAddress, parseTrustProxy, TRUST_NO_PROXY } from './client-address';

describe('the client address under TRUST_PROXY', () => {
  it('when nothing is trusted, then the socket peer is the client and X-Forwarded-For is ignored', () => {
    for (const setting of [undefined, '', 'false', '0']) {
      expect(clientAddress('192.0.2.10', '198.51.100.1', parseTrustProxy(setting))).toBe('192.0.2.10');
    }
    expect(clientAddress(undefined, undefined, TRUST_NO_PROXY)).toBe('unknown');
  });

  it('when N hops are trusted, then the client is the N-th address from the peer, whatever the client wrote before it', () => {
    const oneHop = parseTrustProxy('1');
    expect(clientAddress('10.0.0.2', '203.0.113.5', oneHop)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.2', 'spoofed, 6.6.6.6, 203.0.113.5', oneHop)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.2', '203.0.113.5, 10.0.0.9', parseTrustProxy('2'))).toBe('203.0.113.5');
  });

  it('when more hops are trusted than addresses came, then the leftmost address is the client', () => {
    expect(clientAddress('10.0.0.2', '203.0.113.5', parseTrustProxy('3'))).toBe('203.0.113.5');
  });

  it('when proxies are named by address, CIDR or name, then the client is the nearest address that is not a proxy', () => {
    const trust = parseTrustProxy('loopback, 10.0.0.0/8, 2001:db8::/32, 192.0.2.7');
    expect(clientAddress('127.0.0.1', '6.6.6.6, 203.0.113.5, 10.1.2.3', trust)).toBe('203.0.113.5');
    expect(clientAddress('2001:db8::1', '203.0.113.5, 192.0.2.7', trust)).toBe('203.0.113.5');
    expect(clientAddress('198.51.100.4', '203.0.113.5', trust)).toBe('198.51.100.4');
  });

  it('when the peer is an IPv4 address on a dual-stack socket, then it is compared and reported without the ::ffff: prefix', () => {
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.5', parseTrustProxy('loopback'))).toBe('203.0.113.5');
    expect(clientAddress('::ffff:192.0.2.10', undefined, TRUST_NO_PROXY)).toBe('192.0.2.10');
  });

  it('when the entry the rule would pick is not an IP address, then the walk stops at the last trusted address', () => {
    expect(clientAddress('10.0.0.2', 'not-an-ip', parseTrustProxy('1'))).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', 'garbage, 10.1.2.3', parseTrustProxy('loopback, uniquelocal'))).toBe('10.1.2.3');
  });

  it('when TRUST_PROXY is true or not an address, then it is refused with a reason', () => {
    expect(() => parseTrustProxy('true')).toThrow(/any client choose its own address/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
    expect(() => parseTrustProxy('proxy.internal')).toThrow(/neither a number of proxies/);
  });
});
