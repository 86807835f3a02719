import { ValidationError } from '@vaultline/core';
import { DECLINE_CATEGORIES, HARD_DECLINE_CATEGORIES, isDeclineCategory, type DeclineCategory } from '../declines/decline';
import type { ProcessorLookup } from '../processor-port/processor-lookup';

/** ordered: the step's order (every decision the same); weighted: a volume split by `weights`; success_rate: the best recent authorization rate. */
export const ROUTING_STRATEGIES = ['ordered', 'weighted', 'success_rate'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];

/**
 * An authorization step's routing: which of its processors goes first (`strategy`, `weights`) and what a
 * decline does (`on_decline`). Validated when the flow is saved, each problem naming its field.
 */

/** step_up_3ds: the same processor again with a 3-D Secure challenge (consumer present only); next_processor: the step's next processor; stop: the decline stands. */
export const DECLINE_ACTIONS = ['step_up_3ds', 'next_processor', 'stop'] as const;
export type DeclineAction = (typeof DECLINE_ACTIONS)[number];

export interface OnDeclineRule {
  categories: DeclineCategory[];
  action: DeclineAction;
}

/** What a step's routing fields hold once validated. */
export interface StepRouting {
  strategy?: RoutingStrategy;
  /** weighted: one integer per processor of the step (processor, then fallback), in that order. */
  weights?: number[];
  on_decline?: OnDeclineRule[];
}

/** What a merchant may send (checked here rather than by the schema, so a problem names `steps[i].on_decline[j]…`). */
export interface StepRoutingInput {
  kind: string;
  processor: string;
  fallback: string[];
  three_ds?: string;
  strategy?: string;
  weights?: unknown[];
  on_decline?: Array<{ categories?: unknown; action?: unknown }>;
}

const MAX_RULES = 10;

/** The rule a decline of this category falls under: the first that lists it; none: the decline stands (stop). */
export function ruleFor(rules: readonly OnDeclineRule[] | undefined, category: DeclineCategory): OnDeclineRule | undefined {
  return rules?.find((rule) => rule.categories.includes(category));
}

export function strategyOf(step: { strategy?: RoutingStrategy }): RoutingStrategy {
  return step.strategy ?? 'ordered';
}

/**
 * Checks a step's routing fields: only the authorization step has them; a known strategy, weights with it
 * (and only with weighted: one non-negative integer per processor, not all zero); on_decline rules with
 * known categories and actions, a category in one rule only, no hard decline sent anywhere
 * (lost_or_stolen, suspected_fraud, invalid_card are never retried), next_processor only with a processor
 * to go on to, step_up_3ds only for authentication_required, with three_ds not off and processors that run
 * 3-D Secure.
 */
export function validateStepRouting(step: StepRoutingInput, field: string, processors: ProcessorLookup): void {
  const ids = [step.processor, ...step.fallback];
  const has = (key: 'strategy' | 'weights' | 'on_decline') => step[key] !== undefined;
  if (step.kind !== 'authorization') {
    const extra = (['strategy', 'weights', 'on_decline'] as const).find(has);
    if (extra) throw new ValidationError(`${field}.${extra}`, `Only the authorization step takes ${extra}.`, 'invalid_flow');
    return;
  }
  if (step.strategy !== undefined && !(ROUTING_STRATEGIES as readonly string[]).includes(step.strategy)) {
    throw new ValidationError(`${field}.strategy`, `strategy is one of ${ROUTING_STRATEGIES.join(', ')}.`, 'invalid_flow');
  }
  validateWeights(step, field, ids.length);
  const rules = step.on_decline ?? [];
  if (rules.length > MAX_RULES) throw new ValidationError(`${field}.on_decline`, `At most ${MAX_RULES} on_decline rules.`, 'invalid_flow');
  const seen = new Map<string, number>();
  rules.forEach((rule, j) => {
    const at = `${field}.on_decline[${j}]`;
    if (typeof rule !== 'object' || rule === null) throw new ValidationError(at, 'An on_decline rule is {categories, action}.', 'invalid_flow');
    if (!Array.isArray(rule.categories) || rule.categories.length === 0)
      throw new ValidationError(`${at}.categories`, 'categories is a non-empty list of decline categories.', 'invalid_flow');
    if (typeof rule.action !== 'string' || !(DECLINE_ACTIONS as readonly string[]).includes(rule.action)) {
      throw new ValidationError(`${at}.action`, `action is one of ${DECLINE_ACTIONS.join(', ')}.`, 'invalid_flow');
    }
    const action = rule.action as DeclineAction;
    rule.categories.forEach((category: unknown, k: number) => {
      const categoryField = `${at}.categories[${k}]`;
      if (typeof category !== 'string' || !isDeclineCategory(category))
        throw new ValidationError(categoryField, `A decline category is one of ${DECLINE_CATEGORIES.join(', ')}.`, 'invalid_flow');
      const earlier = seen.get(category);
      if (earlier !== undefined)
        throw new ValidationError(categoryField, `${category} is already in on_decline[${earlier}]: a category belongs to one rule.`, 'invalid_flow');
      seen.set(category, j);
      if (action !== 'stop' && HARD_DECLINE_CATEGORIES.includes(category)) {
        throw new ValidationError(
          categoryField,
          `${category} is a hard decline: it is never retried, on this processor or another (only stop may name it).`,
          'invalid_flow',
        );
      }
      if (action === 'step_up_3ds' && category !== 'authentication_required') {
        throw new ValidationError(
          categoryField,
          "step_up_3ds answers the issuer's demand for authentication: its only category is authentication_required.",
          'invalid_flow',
        );
      }
    });
    if (action === 'next_processor' && ids.length < 2)
      throw new ValidationError(`${at}.action`, 'next_processor needs another processor in the step (processors, or fallback) to go on to.', 'invalid_flow');
    if (action === 'step_up_3ds') {
      if (step.three_ds === 'off')
        throw new ValidationError(`${at}.action`, 'step_up_3ds asks a 3-D Secure challenge: three_ds off never runs one.', 'invalid_flow');
      const missing = ids.find((id) => processors.get(id)?.capabilities.authentication3ds === false);
      if (missing)
        throw new ValidationError(
          `${at}.action`,
          `step_up_3ds needs 3-D Secure of every processor of the step; ${missing} does not run it.`,
          'processor_capability_missing',
        );
    }
  });
}

function validateWeights(step: StepRoutingInput, field: string, processorCount: number): void {
  if (step.strategy !== 'weighted') {
    if (step.weights !== undefined) throw new ValidationError(`${field}.weights`, 'weights go with strategy weighted.', 'invalid_flow');
    return;
  }
  const weights = step.weights;
  if (!Array.isArray(weights) || weights.length !== processorCount) {
    throw new ValidationError(
      `${field}.weights`,
      `strategy weighted takes one weight per processor of the step (${processorCount}), in the step's order.`,
      'invalid_flow',
    );
  }
  weights.forEach((weight, k) => {
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > 1_000_000) {
      throw new ValidationError(`${field}.weights[${k}]`, 'A weight is an integer from 0 to 1000000.', 'invalid_flow');
    }
  });
  if ((weights as number[]).every((weight) => weight === 0)) throw new ValidationError(`${field}.weights`, 'At least one weight is above 0.', 'invalid_flow');
}
