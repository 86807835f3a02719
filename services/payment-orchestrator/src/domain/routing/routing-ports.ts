import type { Clock, Scope } from '@vaultline/core';
import type { RetryLimits } from '../declines/retry-limits';
import { strategyOf } from '../flows/step-routing';
import type { FlowStep } from '../flows/flow';
import { chooseOrder, type RoutingChoice, type SuccessRateSettings } from './choose-processor';
import type { Segment } from './segment';
import type { RoutingStatsRepository } from './routing-stats';

/** What routing needs, given once by the composition root: the counts, a random source, the settings, the schemes' retry limits. */
export interface RoutingPorts {
  stats: RoutingStatsRepository;
  /** In [0, 1): Math.random in production; a seeded source in tests and the bench, so decisions repeat. */
  random: () => number;
  settings: SuccessRateSettings;
  retryLimits: RetryLimits;
  clock: Clock;
  /** A count that could not be stored (the payment's commit stands: counts are advice to later decisions). */
  onStatsError(error: unknown): void;
}

/**
 * The order an authorization step's processors are tried in for a payment of this segment, and why
 * (`candidates`: the step's processors that can take the amount, in the step's order). success_rate reads
 * the recent outcomes of the merchant in this mode; explain makes no draw.
 */
export async function decideRoute(
  ports: RoutingPorts,
  scope: Scope,
  step: FlowStep,
  candidates: readonly string[],
  segment: Segment,
  explainOnly = false,
): Promise<RoutingChoice> {
  const strategy = strategyOf(step);
  const all = [step.processor, ...step.fallback];
  const rows =
    strategy === 'success_rate' && candidates.length > 1
      ? await ports.stats.window(scope, new Date(ports.clock.now().getTime() - ports.settings.windowMs))
      : [];
  return chooseOrder({
    strategy,
    candidates,
    ...(step.weights ? { weights: candidates.map((id) => step.weights![all.indexOf(id)] ?? 0) } : {}),
    segment,
    rows,
    settings: ports.settings,
    random: ports.random,
    explainOnly,
    now: ports.clock.now(),
  });
}
