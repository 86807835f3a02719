import { ManualClock } from '@vaultline/core';
import { getRoutingStats } from './query-routing-stats';
import { emptyDecisions, type RoutingStatsRepository, type RoutingStatsRow } from './routing-stats';
import type { Segment } from './segment';

const scope = { merchantId: 'm1', mode: 'test' as const };
const visa: Segment = { scheme: 'VISA', country: 'unknown', currency_code: 'EUR', amount_band: '10_to_100' };
const mastercard: Segment = { ...visa, scheme: 'MASTERCARD' };
const now = new Date('2026-06-01T11:00:00.000Z');
/** A bucket of 5 minutes (a twelfth of the hour) that started `minutesAgo` before now. */
const row = (processor: string, minutesAgo: number, attempts: number, approved: number, segment: Segment = visa): RoutingStatsRow => ({
  bucket_start: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  processor,
  segment,
  attempts,
  approved,
  declined: attempts - approved,
  errors: 0,
  decisions: emptyDecisions(),
});

function statsOf(rows: RoutingStatsRow[]) {
  const stats: RoutingStatsRepository = { window: async () => rows, record: async () => undefined };
  return getRoutingStats({
    stats,
    clock: new ManualClock(now),
    settings: { windowMs: 3_600_000, halfLifeMs: 600_000, explorationShare: 0.05, minAttempts: 20 },
  });
}

describe('GET /routing/stats, as decisions weigh outcomes', () => {
  it('when a processor was good an hour ago and is poor now, then authorization_rate counts the whole window and recent_authorization_rate weighs each bucket by 0.5^(age / half-life), to 4 decimals', async () => {
    // Buckets 50 and 0 minutes old; their middles are 47.5 and (capped at now) 0 minutes old.
    const report = await statsOf([row('a', 50, 100, 95), row('a', 0, 100, 55)])(scope, { group_by: 'processor' });
    const old = 0.5 ** (47.5 / 10);
    expect(report.lines).toEqual([expect.objectContaining({ processor: 'a', attempts: 200, approved: 150, authorization_rate: 0.75 })]);
    expect(report.lines[0]!.recent_authorization_rate).toBeCloseTo((95 * old + 55) / (100 * old + 100), 4);
    expect(report.lines[0]!.recent_authorization_rate).toBeLessThan(0.6);
  });

  it("when a processor stopped answering in the last bucket, then its recent rate is its answered attempts' approval times the share answered now: near 0 during an outage, whatever the window says", async () => {
    const report = await statsOf([row('a', 30, 10, 9), { ...row('a', 0, 10, 0), declined: 0, errors: 10 }])(scope, { group_by: 'processor' });
    expect(report.lines[0]).toMatchObject({ attempts: 20, approved: 9, declined: 1, errors: 10, authorization_rate: 0.45 });
    expect(report.lines[0]!.recent_authorization_rate).toBeLessThan(0.01);
  });

  it('when grouped by segment, then each processor and segment has its own line and rates; a filter keeps the matching rows only', async () => {
    const get = statsOf([row('a', 10, 10, 9), row('a', 10, 10, 5, mastercard), row('b', 10, 4, 4)]);
    const bySegment = await get(scope, { group_by: 'segment' });
    expect(bySegment.lines.map((line) => [line.processor, line.segment?.scheme, line.authorization_rate, line.recent_authorization_rate])).toEqual([
      ['a', 'MASTERCARD', 0.5, 0.5],
      ['a', 'VISA', 0.9, 0.9],
      ['b', 'VISA', 1, 1],
    ]);
    expect((await get(scope, { group_by: 'processor', scheme: 'mastercard' })).lines.map((line) => [line.processor, line.attempts])).toEqual([['a', 10]]);
  });
});
