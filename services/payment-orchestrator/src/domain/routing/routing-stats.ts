import type { Scope } from '@vaultline/core';
import { withinLevel, type Segment, type SegmentLevel } from './segment';

/**
 * The service's own authorization outcomes, counted per processor (or processor account) and segment
 * in time buckets, per merchant and mode: what success-rate routing compares and GET /routing/stats
 * shows. Nothing about a card but its scheme and issuing country.
 */

/** An authorization attempt's result at a processor: approved, declined, or not answered (timeout, 5xx, outage). */
export type AttemptResult = 'approved' | 'declined' | 'error';

/** How the first processor of a payment's authorization was chosen. */
export const DECISION_REASONS = ['step_order', 'weighted', 'best_rate', 'exploration', 'no_data'] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];

export interface OutcomeCounts {
  attempts: number;
  approved: number;
  declined: number;
  errors: number;
}

export type DecisionCounts = Record<DecisionReason, number>;

/** One processor in one segment in one time bucket: its outcomes and how often decisions chose it first, by reason. */
export interface RoutingStatsRow extends OutcomeCounts {
  /** The bucket's start (the service's clock); a window is every bucket that starts in it. */
  bucket_start: string;
  processor: string;
  segment: Segment;
  decisions: DecisionCounts;
}

export interface AttemptRecord {
  processor: string;
  segment: Segment;
  result: AttemptResult;
}

export interface DecisionRecord {
  processor: string;
  segment: Segment;
  reason: DecisionReason;
}

export interface RoutingStatsRepository {
  /** Every bucket counted for this merchant and mode that starts at or after `since` (the window's start, rounded down to its bucket). */
  window(scope: Scope, since: Date): Promise<RoutingStatsRow[]>;
  /** Adds attempts and decisions made at `at` (the service's clock). */
  record(scope: Scope, at: Date, entries: { attempts: AttemptRecord[]; decisions: DecisionRecord[] }): Promise<void>;
}

export const emptyDecisions = (): DecisionCounts => ({ step_order: 0, weighted: 0, best_rate: 0, exploration: 0, no_data: 0 });
export const emptyCounts = (): OutcomeCounts => ({ attempts: 0, approved: 0, declined: 0, errors: 0 });

/** Adds one attempt's result to counts (a new object). */
export function withAttempt(counts: OutcomeCounts, result: AttemptResult): OutcomeCounts {
  return {
    attempts: counts.attempts + 1,
    approved: counts.approved + (result === 'approved' ? 1 : 0),
    declined: counts.declined + (result === 'declined' ? 1 : 0),
    errors: counts.errors + (result === 'error' ? 1 : 0),
  };
}

/**
 * Counts with recent outcomes weighing more: each bucket's outcomes weigh 0.5^(its age / half-life) for
 * the approval rate; unanswered attempts (an outage) weigh by a half-life of their own, a minute, so a
 * processor that stops answering loses its traffic at once and gets it back once it answers again.
 */
export interface WeightedCounts extends OutcomeCounts {
  weightedAttempts: number;
  weightedApproved: number;
  weightedErrors: number;
  /** Attempts and errors weighed by AVAILABILITY_HALF_LIFE_MS: how much of the traffic goes unanswered now. */
  recentAttempts: number;
  recentErrors: number;
}

/** The half-life of an unanswered attempt in success-rate decisions: an outage is a matter of minutes, an issuer's approval rate of hours. */
export const AVAILABILITY_HALF_LIFE_MS = 60_000;

/** How outcomes are weighed by age: from `now`, in buckets of `bucketMs`, halving every `halfLifeMs`. */
export interface Weighing {
  now: Date;
  bucketMs: number;
  halfLifeMs: number;
}

/** A bucket's weight: 0.5^(its age / half-life), its age measured from its middle (a bucket still filling weighs 1). */
export function bucketWeight(bucketStart: string, weighing: Weighing): number {
  const age = Math.max(0, weighing.now.getTime() - (Date.parse(bucketStart) + weighing.bucketMs / 2));
  return 0.5 ** (age / weighing.halfLifeMs);
}

export const emptyWeightedCounts = (): WeightedCounts => ({
  ...emptyCounts(),
  weightedAttempts: 0,
  weightedApproved: 0,
  weightedErrors: 0,
  recentAttempts: 0,
  recentErrors: 0,
});

/** Adds a bucket's outcomes to `sum`, as they are and weighed by their age. */
export function addWeighted(sum: WeightedCounts, row: OutcomeCounts & { bucket_start: string }, weighing: Weighing): void {
  const weight = bucketWeight(row.bucket_start, weighing);
  const availabilityWeight = bucketWeight(row.bucket_start, { ...weighing, halfLifeMs: AVAILABILITY_HALF_LIFE_MS });
  sum.attempts += row.attempts;
  sum.approved += row.approved;
  sum.declined += row.declined;
  sum.errors += row.errors;
  sum.weightedAttempts += row.attempts * weight;
  sum.weightedApproved += row.approved * weight;
  sum.weightedErrors += row.errors * weight;
  sum.recentAttempts += row.attempts * availabilityWeight;
  sum.recentErrors += row.errors * availabilityWeight;
}

/**
 * The rate decisions compare: the share of answered attempts approved (recent ones weighing more) times the
 * share of attempts answered now; with a few outcomes smoothed by Laplace's rule ((approved + 1) /
 * (answered + 2)), so a handful cannot decide. Null without attempts.
 */
export function recentRate(counts: WeightedCounts, smoothed = false): number | null {
  if (counts.weightedAttempts <= 0) return null;
  const answered = Math.max(0, counts.weightedAttempts - counts.weightedErrors);
  const approval = smoothed ? (counts.weightedApproved + 1) / (answered + 2) : answered > 0 ? counts.weightedApproved / answered : 0;
  const availability = counts.recentAttempts > 0 ? 1 - counts.recentErrors / counts.recentAttempts : 1;
  return approval * availability;
}

/**
 * A processor's outcomes within a segment level, summed as they are (what is shown) and weighted by age
 * (what is compared): a bucket's weight halves every `halfLifeMs`, measured from its middle to `now`, so a
 * change (a processor's rate falling) shows within a half-life rather than a window.
 */
export function weightedCountsAt(
  rows: readonly RoutingStatsRow[],
  processor: string,
  segment: Segment,
  level: SegmentLevel,
  weighing: Weighing,
): WeightedCounts {
  const sum = emptyWeightedCounts();
  for (const row of rows) {
    if (row.processor === processor && withinLevel(row.segment, segment, level)) addWeighted(sum, row, weighing);
  }
  return sum;
}

/** Approved over attempts (errors count as failures: a processor that does not answer authorizes nothing); null without attempts. */
export function authorizationRate(counts: OutcomeCounts): number | null {
  return counts.attempts === 0 ? null : counts.approved / counts.attempts;
}

/** The time buckets outcomes are counted in: twelve to a window, at least a minute, so a window slides a bucket at a time. */
export function bucketMsOf(windowMs: number): number {
  return Math.max(60_000, Math.floor(windowMs / 12));
}

/** The start of the bucket a moment falls in. */
export function bucketStart(at: Date, bucketMs: number): string {
  return new Date(Math.floor(at.getTime() / bucketMs) * bucketMs).toISOString();
}

/** The key of one processor in one segment (buckets of it add up under it). */
export function rowKey(processor: string, segment: Segment): string {
  return [processor, segment.scheme, segment.country, segment.currency_code, segment.amount_band].join('\u0000');
}

/**
 * The buckets after these attempts and decisions were added at `bucket` (pure): `rows` keyed by bucket and
 * row key; a new bucket starts from zero.
 */
export function addToBuckets(
  rows: Map<string, RoutingStatsRow>,
  bucket: string,
  entries: { attempts: readonly AttemptRecord[]; decisions: readonly DecisionRecord[] },
): Set<string> {
  const touched = new Set<string>();
  const rowOf = (processor: string, segment: Segment): RoutingStatsRow => {
    const key = `${bucket}\u0000${rowKey(processor, segment)}`;
    touched.add(key);
    let row = rows.get(key);
    if (!row) {
      row = { bucket_start: bucket, processor, segment: { ...segment }, ...emptyCounts(), decisions: emptyDecisions() };
      rows.set(key, row);
    }
    return row;
  };
  for (const attempt of entries.attempts) {
    const row = rowOf(attempt.processor, attempt.segment);
    Object.assign(row, withAttempt(row, attempt.result));
  }
  for (const decision of entries.decisions) {
    const row = rowOf(decision.processor, decision.segment);
    row.decisions = { ...row.decisions, [decision.reason]: row.decisions[decision.reason] + 1 };
  }
  return touched;
}
