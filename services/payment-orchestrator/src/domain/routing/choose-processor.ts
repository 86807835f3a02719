import { bucketMsOf, recentRate, weightedCountsAt, type DecisionReason, type OutcomeCounts, type RoutingStatsRow, type WeightedCounts } from './routing-stats';
import type { RoutingStrategy } from '../flows/step-routing';
import { describeSegment, SEGMENT_LEVELS, type Segment, type SegmentLevel } from './segment';

/**
 * Which processor of an authorization step a payment goes to first, and in which order the others follow
 * (for technical errors and `on_decline: next_processor`). Pure: the recent outcomes and the random source
 * are given, so a decision is the same for the same inputs (tests inject a seeded source).
 */

export interface SuccessRateSettings {
  /** How far back outcomes count (ROUTING_STATS_WINDOW). */
  windowMs: number;
  /** Within the window, an outcome's weight halves every this long (ROUTING_STATS_HALF_LIFE): recent outcomes decide. */
  halfLifeMs: number;
  /** The share of decisions that try a processor other than the best, so its rate stays current (ROUTING_EXPLORATION_SHARE). */
  explorationShare: number;
  /**
   * Recent outcomes a processor needs in a segment before its rate there is compared, counted with the weights
   * the rate is computed with (an outcome a half-life old counts half); fewer, and the segment widens
   * (ROUTING_MIN_ATTEMPTS).
   */
  minAttempts: number;
}

export interface ProcessorRate extends OutcomeCounts {
  processor: string;
  /** The rate compared: approved / attempts over the window at the level compared, recent outcomes weighing more; null without attempts. */
  rate: number | null;
}

export interface RoutingChoice {
  strategy: RoutingStrategy;
  /** The processors in the order they are tried: the first is the choice. */
  order: string[];
  reason: DecisionReason;
  /** The choice and its reason in words (the payment's routing and the flow-matrix explain show it). */
  detail: string;
  /** success_rate: the payment's segment, the level the rates were compared at, and the rates. */
  segment?: Segment;
  level?: SegmentLevel;
  rates?: ProcessorRate[];
  /** weighted: each candidate's weight. */
  weights?: Array<{ processor: string; weight: number }>;
}

export interface ChoiceInput {
  strategy: RoutingStrategy;
  /** The step's processors that can take the amount, in the step's order. */
  candidates: readonly string[];
  /** weighted: the weight of each candidate (the step's weights of those processors). */
  weights?: readonly number[];
  segment: Segment;
  /** success_rate: the recent outcomes (the window), for this merchant and mode. */
  rows: readonly RoutingStatsRow[];
  settings: SuccessRateSettings;
  /** A number in [0, 1): Math.random in production, a seeded source in tests and the bench. */
  random: () => number;
  /** Explain only: the exploiting choice, no draw (nothing is sent, so nothing needs exploring). */
  explainOnly?: boolean;
  /** The decision's moment (the service's clock): outcomes' ages are counted from it. */
  now: Date;
}

export function chooseOrder(input: ChoiceInput): RoutingChoice {
  const { candidates } = input;
  if (candidates.length <= 1 || input.strategy === 'ordered') {
    const detail =
      candidates.length <= 1
        ? `${candidates[0] ?? 'none'}: the only processor of the step that can take the payment`
        : `${candidates[0]}: the first processor of the step (strategy ordered)`;
    return { strategy: input.strategy, order: [...candidates], reason: 'step_order', detail };
  }
  return input.strategy === 'weighted' ? weighted(input) : successRate(input);
}

function weighted(input: ChoiceInput): RoutingChoice {
  const weights = input.candidates.map((processor, at) => ({ processor, weight: Math.max(0, input.weights?.[at] ?? 0) }));
  const total = weights.reduce((sum, entry) => sum + entry.weight, 0);
  if (total <= 0)
    return {
      strategy: 'weighted',
      order: [...input.candidates],
      reason: 'step_order',
      detail: `${input.candidates[0]}: no weight left among the processors that can take the payment, so the step's order`,
      weights,
    };
  // The exploiting choice of an explanation: the heaviest (the step's order on a tie).
  let chosen = weights.reduce((best, entry) => (entry.weight > best.weight ? entry : best), weights[0]!);
  if (!input.explainOnly) {
    let draw = input.random() * total;
    chosen = weights.find((entry) => (draw -= entry.weight) < 0) ?? weights[weights.length - 1]!;
  }
  const rest = weights.filter((entry) => entry !== chosen).sort((a, b) => b.weight - a.weight);
  const share = (entry: { weight: number }) => `${Math.round((entry.weight / total) * 1000) / 10} %`;
  const detail = input.explainOnly
    ? `${chosen.processor} takes ${share(chosen)} of the volume (weights ${weights.map((entry) => `${entry.processor} ${entry.weight}`).join(', ')}); each payment is drawn`
    : `${chosen.processor}: drawn by weight, ${share(chosen)} of the volume (weights ${weights.map((entry) => `${entry.processor} ${entry.weight}`).join(', ')})`;
  return { strategy: 'weighted', order: [chosen.processor, ...rest.map((entry) => entry.processor)], reason: 'weighted', detail, weights };
}

/** What processors are ranked by: the recent rate, smoothed so that a handful of outcomes cannot push it to 0 or 1. */
const smoothed = (counts: WeightedCounts) => recentRate(counts, true) ?? 0.5;

const percent = (rate: number | null) => (rate === null ? 'no attempts' : `${Math.round(rate * 1000) / 10} %`);

function successRate(input: ChoiceInput): RoutingChoice {
  const { candidates, segment, rows, settings } = input;
  const weighing = { now: input.now, bucketMs: bucketMsOf(settings.windowMs), halfLifeMs: settings.halfLifeMs };
  const countsOf = (level: SegmentLevel) => candidates.map((processor) => ({ processor, ...weightedCountsAt(rows, processor, segment, level, weighing) }));
  // The narrowest segment in which every processor has enough recent outcomes to be compared, weighed as the
  // rates are: counted as they are, an hour of old outcomes would let a handful of recent ones decide.
  let level = SEGMENT_LEVELS.find((candidate) => countsOf(candidate).every((counts) => counts.weightedAttempts >= settings.minAttempts));
  const windowWords = `the last ${Math.round(settings.windowMs / 60_000)} min`;
  if (!level) {
    if (countsOf('all').every((counts) => counts.attempts === 0)) {
      return {
        strategy: 'success_rate',
        order: [...candidates],
        reason: 'no_data',
        detail: `${candidates[0]}: no authorization outcomes in ${windowWords}, so the step's order`,
        segment,
      };
    }
    // Too few everywhere: every outcome of the merchant counts, however few.
    level = 'all';
  }
  const weighted = countsOf(level);
  const ranked = [...weighted].sort((a, b) => smoothed(b) - smoothed(a) || candidates.indexOf(a.processor) - candidates.indexOf(b.processor));
  const rateOf = (counts: (typeof weighted)[number]): ProcessorRate => ({
    processor: counts.processor,
    attempts: counts.attempts,
    approved: counts.approved,
    declined: counts.declined,
    errors: counts.errors,
    rate: recentRate(counts),
  });
  const rates = weighted.map(rateOf);
  const best = ranked[0]!;
  const others = ranked.slice(1);
  const compared = rates.map((rate) => `${rate.processor} ${percent(rate.rate)} of ${rate.attempts}`).join(', ');
  const where = `${describeSegment(segment, level)}, ${windowWords}, recent outcomes weighing more`;
  if (!input.explainOnly && input.random() < settings.explorationShare) {
    const explored = others[Math.min(others.length - 1, Math.floor(input.random() * others.length))]!;
    return {
      strategy: 'success_rate',
      order: [explored.processor, best.processor, ...others.filter((rate) => rate !== explored).map((rate) => rate.processor)],
      reason: 'exploration',
      detail: `${explored.processor}: exploration (${percent(settings.explorationShare)} of decisions try another processor than the best, so its rate stays current); the best was ${best.processor} (${where}: ${compared})`,
      segment,
      level,
      rates,
    };
  }
  return {
    strategy: 'success_rate',
    order: ranked.map((rate) => rate.processor),
    reason: 'best_rate',
    detail: `${best.processor}: the highest recent authorization rate for ${where} (${compared})`,
    segment,
    level,
    rates,
  };
}
