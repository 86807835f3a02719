import { isLoopbackAddress, isLoopbackHostname, isPublicAddress, parseIPv6 } from './ip-address';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.100.100.200',
    '127.0.0.1',
    '127.255.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.192',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.1.1.1',
    '240.0.0.1',
    '255.255.255.255',
  ])('when the IPv4 address is %s, then it is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'febf::1',
    'ff02::1',
    'ff0e::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::127.0.0.1',
    '2002:7f00:1::1',
    '2002:c0a8:0101::',
    '2001:db8::1',
    '2001:0:4136:e378::1',
    '100::1',
    'fec0::1',
    '0:0:0:0:0:ffff:7f00:0001',
  ])('when the IPv6 address is %s, then it is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.3.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('when the address is %s, then it is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['', 'localhost', '127.1', '0x7f.0.0.1', '2130706433', '1::2::3', 'fe80::1%eth0', '::ffff:999.0.0.1'])(
    'when the text %j is not a canonical address, then it is not public',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

describe('parseIPv6', () => {
  it('when an address is compressed or embeds an IPv4, then it expands to eight groups', () => {
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('isLoopbackAddress and isLoopbackHostname', () => {
  it.each(['127.0.0.1', '127.255.0.1', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])('when the address is %s, then it is loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each(['0.0.0.0', '10.0.0.1', '169.254.169.254', '192.168.1.1', '93.184.216.34', '::', 'fe80::1', '::ffff:10.0.0.1', '128.0.0.1', 'localhost', '127.1'])(
    'when the address is %s, then it is not loopback',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );

  it.each(['localhost', 'LOCALHOST', 'shop.localhost', 'localhost.', '127.0.0.1', '[::1]', '::1'])('when the host is %s, then it names loopback', (host) => {
    expect(isLoopbackHostname(host)).toBe(true);
  });

  it.each(['example.com', 'localhost.example.com', '0.0.0.0', '10.0.0.1', '2130706433', '[::]', 'mylocalhost'])(
    'when the host is %s, then it does not name loopback',
    (host) => {
      expect(isLoopbackHostname(host)).toBe(false);
    },
  );
});
