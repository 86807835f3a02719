import { ENDPOINT_BUCKETS, endpointBucket, hashedBucket, topReadings } from './bounded-labels';

describe('labels merchants control stay bounded', () => {
  it('when 10,000 webhook endpoints are counted, then their ids fall into the 64 endpoint buckets, spread over all of them', () => {
    const buckets = new Map<string, number>();
    for (let index = 0; index < 10_000; index++) {
      const bucket = endpointBucket(`we_${index.toString(36).padStart(8, '0')}`);
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
    }

    expect(buckets.size).toBe(ENDPOINT_BUCKETS);
    expect([...buckets.keys()].every((bucket) => /^bucket-\d\d$/.test(bucket))).toBe(true);
    // About 156 each: no bucket empty or holding a third of them.
    expect(Math.min(...buckets.values())).toBeGreaterThan(100);
    expect(Math.max(...buckets.values())).toBeLessThan(220);
  });

  it('when the same id is counted in another replica, process or release, then it lands in the same bucket (a stable hash, not a seeded one)', () => {
    expect(endpointBucket('we_01HZY8K2')).toBe(endpointBucket('we_01HZY8K2'));
    // FNV-1a of the UTF-8 bytes, pinned: a change of the hash would move every endpoint to another bucket.
    expect(hashedBucket('a', 2 ** 32, '')).toBe(String(0xe40c292c)); // FNV-1a's published value for "a"
    expect(hashedBucket('cards-eu', 16, 'custom-')).toMatch(/^custom-\d\d$/);
  });

  it('when a gauge has more readings than the top, then the largest keep their label and the rest are summed as other, the total unchanged', () => {
    const readings = Array.from({ length: 30 }, (_, index) => ({ labels: { endpoint: `we_${index}` }, value: index + 1 }));

    const bounded = topReadings(readings, 'endpoint', 20);

    expect(bounded).toHaveLength(21);
    expect(bounded.slice(0, 2)).toEqual([
      { labels: { endpoint: 'we_29' }, value: 30 },
      { labels: { endpoint: 'we_28' }, value: 29 },
    ]);
    expect(bounded.at(-1)).toEqual({ labels: { endpoint: 'other' }, value: 55 });
    expect(bounded.reduce((sum, reading) => sum + reading.value, 0)).toBe(465);
    expect(topReadings(readings.slice(0, 3), 'endpoint', 20)).toHaveLength(3);
  });
});
