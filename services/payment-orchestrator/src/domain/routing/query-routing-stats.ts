import type { Scope } from '@vaultline/core';
import type { RoutingPorts } from './routing-ports';
import {
  addWeighted,
  bucketMsOf,
  emptyCounts,
  emptyWeightedCounts,
  recentRate,
  emptyDecisions,
  authorizationRate,
  rowKey,
  type DecisionCounts,
  type OutcomeCounts,
  type RoutingStatsRow,
  type WeightedCounts,
} from './routing-stats';
import type { AmountBand, Segment } from './segment';

/** GET /routing/stats's filters: a row is shown when it matches every one given. */
export interface RoutingStatsQuery {
  processor?: string;
  scheme?: string;
  country?: string;
  currency_code?: string;
  amount_band?: AmountBand;
  /** segment (the default): a row per processor and segment, as decisions compare them; processor: a row per processor. */
  group_by: 'segment' | 'processor';
}

export interface RoutingStatsLine extends OutcomeCounts {
  processor: string;
  /** Absent when grouped by processor. */
  segment?: Segment;
  authorization_rate: number | null;
  /** The rate as decisions compare it (routing-stats.ts recentRate): answered attempts approved, recent ones weighing more, times the share answered now; 4 decimals. */
  recent_authorization_rate: number | null;
  decisions: DecisionCounts;
}

export interface RoutingStatsReport {
  window_ms: number;
  since: string;
  until: string;
  lines: RoutingStatsLine[];
}

export type GetRoutingStats = (scope: Scope, query: RoutingStatsQuery) => Promise<RoutingStatsReport>;

/** The counts success-rate decisions read now (the same window, the same buckets), summed per processor and segment, or per processor. */
export function getRoutingStats(ports: Pick<RoutingPorts, 'stats' | 'settings' | 'clock'>): GetRoutingStats {
  return async (scope, query) => {
    const until = ports.clock.now();
    const since = new Date(until.getTime() - ports.settings.windowMs);
    const rows = (await ports.stats.window(scope, since)).filter((row) => matches(row, query));
    const lines = new Map<string, RoutingStatsLine>();
    const weighted = new Map<string, WeightedCounts>();
    const weighing = { now: until, bucketMs: bucketMsOf(ports.settings.windowMs), halfLifeMs: ports.settings.halfLifeMs };
    for (const row of rows) {
      const key = query.group_by === 'processor' ? row.processor : rowKey(row.processor, row.segment);
      const line = lines.get(key) ?? {
        processor: row.processor,
        ...(query.group_by === 'segment' ? { segment: { ...row.segment } } : {}),
        ...emptyCounts(),
        authorization_rate: null,
        recent_authorization_rate: null,
        decisions: emptyDecisions(),
      };
      line.attempts += row.attempts;
      line.approved += row.approved;
      line.declined += row.declined;
      line.errors += row.errors;
      for (const reason of Object.keys(line.decisions) as Array<keyof DecisionCounts>) line.decisions[reason] += row.decisions[reason] ?? 0;
      lines.set(key, line);
      // As decisions weigh them (choose-processor.ts): a bucket's weight halves every half-life.
      const sums = weighted.get(key) ?? emptyWeightedCounts();
      addWeighted(sums, row, weighing);
      weighted.set(key, sums);
    }
    const sorted = [...lines.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, line]) => {
        const recent = recentRate(weighted.get(key)!);
        return {
          ...line,
          authorization_rate: authorizationRate(line),
          recent_authorization_rate: recent === null ? null : Math.round(recent * 10_000) / 10_000,
        };
      });
    return { window_ms: ports.settings.windowMs, since: since.toISOString(), until: until.toISOString(), lines: sorted };
  };
}

function matches(row: RoutingStatsRow, query: RoutingStatsQuery): boolean {
  return (
    (query.processor === undefined || row.processor === query.processor) &&
    (query.scheme === undefined || row.segment.scheme === query.scheme.toUpperCase()) &&
    (query.country === undefined || row.segment.country === query.country.toUpperCase()) &&
    (query.currency_code === undefined || row.segment.currency_code === query.currency_code) &&
    (query.amount_band === undefined || row.segment.amount_band === query.amount_band)
  );
}
