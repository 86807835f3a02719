import { MemoryTtlStore } from '@vaultline/ttl';
import type { AdminAction } from './admin-audit-entry';
import { AdminRefusalLog, MAX_REFUSAL_ADDRESSES_PER_MINUTE, adminRetryAfter, countAdminRefusal, refusalAddressOf } from './admin-refusals';
import { auditedPath, idsInPath } from './admin-audit';

function fixedClock(start: string) {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const refused = (address: string, status = 401) => ({ address, method: 'GET', path: '/admin/merchants', status, requestId: `req-${address}` });

describe('refused admin requests', () => {
  it('when an IPv6 client changes its address within its /64, then it is the same address for the limit and the audit', () => {
    expect(refusalAddressOf('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(refusalAddressOf('2001:0db8:0000:0001:ffff:eeee:dddd:cccc')).toBe('2001:db8:0:1::/64');
    expect(refusalAddressOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(refusalAddressOf('203.0.113.7')).toBe('203.0.113.7');
  });

  it('when an address reached the limit, then it waits until its minute ends, and may send again after', async () => {
    const clock = fixedClock('2027-01-01T00:00:00Z');
    const ttl = new MemoryTtlStore({ clock });
    const retryAfter = adminRetryAfter({ ttl, perMinute: 3 });
    const count = countAdminRefusal({ ttl });
    for (let refusal = 0; refusal < 3; refusal++) {
      expect(await retryAfter('198.51.100.1')).toBe(0);
      await count('198.51.100.1');
    }
    clock.advance(20_000);
    expect(await retryAfter('198.51.100.1')).toBe(40);
    expect(await retryAfter('198.51.100.2')).toBe(0);
    clock.advance(40_000);
    expect(await retryAfter('198.51.100.1')).toBe(0);
  });

  it('when refusals arrive, then one entry per address, minute and status is written once the minute ended, with their count', async () => {
    const clock = fixedClock('2027-01-01T00:00:10Z');
    const written: Array<{ action: AdminAction; at: Date | undefined }> = [];
    const log = new AdminRefusalLog({ record: async (action, at) => void written.push({ action, at }), clock });
    for (let request = 0; request < 7; request++) log.add(refused('198.51.100.1'));
    log.add(refused('198.51.100.1', 429));
    log.add(refused('2001:db8::1'));
    log.add(refused('2001:db8::2'));

    await log.flush();
    expect(written).toEqual([]);
    clock.advance(60_000);
    await log.flush();
    expect(written.map(({ action }) => ({ address: action.client_address, status: action.status, count: action.count }))).toEqual([
      { address: '198.51.100.1', status: 401, count: 7 },
      { address: '198.51.100.1', status: 429, count: 1 },
      { address: '2001:db8:0:0::/64', status: 401, count: 2 },
    ]);
    expect(written[0]!.at).toEqual(new Date('2027-01-01T00:00:10Z'));
    expect(log.pending).toBe(0);
  });

  it('when more addresses than the bound arrive in a minute, then the ones beyond it are gathered under *', async () => {
    const clock = fixedClock('2027-01-01T00:00:00Z');
    const written: AdminAction[] = [];
    const log = new AdminRefusalLog({ record: async (action) => void written.push(action), clock });
    for (let address = 0; address < MAX_REFUSAL_ADDRESSES_PER_MINUTE + 500; address++)
      log.add(refused(`10.${address >> 16}.${(address >> 8) & 255}.${address & 255}`));
    await log.flush(true);
    expect(written).toHaveLength(MAX_REFUSAL_ADDRESSES_PER_MINUTE + 1);
    expect(written.find((action) => action.client_address === '*')?.count).toBe(500);
  });

  it('when a path is longer than 300 characters, then the audit keeps its first 300 and at most 5 ids, whatever its length', () => {
    const id = '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e31';
    const path = `/admin/merchants/${Array<string>(400).fill(id).join('/')}`;
    expect(auditedPath(`${path}?q=1`)).toBe(`${path.slice(0, 300)}…`);
    expect(auditedPath('/admin/merchants?limit=5')).toBe('/admin/merchants');
    expect(idsInPath(auditedPath(path))).toHaveLength(5);
  });
});
