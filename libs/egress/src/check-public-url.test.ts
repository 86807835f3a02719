import { checkPublicUrl } from './check-public-url';
import { EgressBlockedError, EgressUnreachableError } from './egress-errors';
import type { HostResolver } from './address-guard';

const resolverOf =
  (answers: Record<string, string[]>): HostResolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };
const strict = { allowPrivate: false, httpsOnly: true };

describe('checkPublicUrl', () => {
  it.each([
    ['https://127.0.0.1/x', 'private_address'],
    ['https://127.1/x', 'private_address'],
    ['https://0x7f.0.0.1/x', 'private_address'],
    ['https://0177.0.0.1/x', 'private_address'],
    ['https://2130706433/x', 'private_address'],
    ['https://017700000001/x', 'private_address'],
    ['https://[::1]/x', 'private_address'],
    ['https://[::ffff:7f00:1]/x', 'private_address'],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', 'private_address'],
    ['https://169.254.169.254/latest/meta-data', 'private_address'],
    ['https://[fd00:ec2::254]/latest', 'private_address'],
    ['https://100.100.100.200/latest', 'private_address'],
    ['https://0.0.0.0/x', 'private_address'],
    ['http://example.com/x', 'scheme_not_allowed'],
    ['file:///etc/passwd', 'scheme_not_allowed'],
    ['gopher://example.com/x', 'scheme_not_allowed'],
    ['https://user:pass@example.com/x', 'userinfo_not_allowed'],
    ['https://allowed.example.com@127.0.0.1/x', 'userinfo_not_allowed'],
    ['not a url', 'invalid_url'],
  ])('when the URL is %s, then it is blocked with reason %s', async (url, reason) => {
    const error = await checkPublicUrl(url, { ...strict, resolve: resolverOf({}) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressBlockedError);
    expect((error as EgressBlockedError).reason).toBe(reason);
    expect((error as EgressBlockedError).status).toBe(403);
  });

  it('when a host name resolves to a loopback address, then it is blocked', async () => {
    await expect(checkPublicUrl('https://localhost/x', strict)).rejects.toMatchObject({ reason: 'private_address' });
  });

  it('when any one of several answers is private, then the host is blocked', async () => {
    const resolve = resolverOf({ 'mixed.test': ['93.184.216.34', '10.0.0.5'] });
    await expect(checkPublicUrl('https://mixed.test/x', { ...strict, resolve })).rejects.toMatchObject({ reason: 'private_address' });
  });

  it('when every answer is public, then the URL passes', async () => {
    const resolve = resolverOf({ 'api.example.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    await expect(checkPublicUrl('https://api.example.test/v1', { ...strict, resolve })).resolves.toBeUndefined();
  });

  it('when the host name does not resolve, then it answers unreachable', async () => {
    await expect(checkPublicUrl('https://nowhere.test/x', { ...strict, resolve: resolverOf({}) })).rejects.toBeInstanceOf(EgressUnreachableError);
  });

  it('when private addresses are allowed and https is not required, then a loopback http URL passes', async () => {
    await expect(checkPublicUrl('http://127.0.0.1:9/x', { allowPrivate: true, httpsOnly: false })).resolves.toBeUndefined();
  });
});
