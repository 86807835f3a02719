/**
 * The budgets of issue #33 (one process, one HTTP stack), printed beside each figure they bound: the floor
 * is what the change must reach (the figures before the loopback hop, quiet machine), the goal where the
 * design should head. Compare a run's figure with them only on a quiet machine; on a loaded one, compare
 * with the baseline measured in the same run.
 */
export const BUDGETS = {
  mainThreadMsPerToken: { floor: 0.76, goal: 0.5, unit: 'ms', better: 'lower' },
  mainThreadMsPerPayment: { floor: 3.52, goal: 2.0, unit: 'ms', better: 'lower' },
  tokensToBareExpressPercent: { floor: 20, goal: 30, unit: '%', better: 'higher' },
} as const;

type Budget = (typeof BUDGETS)[keyof typeof BUDGETS];

/** "(floor ≤ 0.76 ms: met; goal ≤ 0.5 ms: NOT met)" for a figure. */
export function againstBudget(value: number, budget: Budget): string {
  const sign = budget.better === 'lower' ? '≤' : '≥';
  const meets = (bound: number) => (budget.better === 'lower' ? value <= bound : value >= bound);
  const unit = budget.unit === '%' ? ' %' : ` ${budget.unit}`;
  return `(floor ${sign} ${budget.floor}${unit}: ${meets(budget.floor) ? 'met' : 'NOT met'}; goal ${sign} ${budget.goal}${unit}: ${meets(budget.goal) ? 'met' : 'NOT met'})`;
}

/**
 * The header every merchant POST of the benches carries, as the SDK sends it (packages/node retrying-fetch:
 * a fresh key per request). autocannon replaces `[<id>]` with a new id per request (idReplacement).
 */
export const IDEMPOTENCY_KEY_PER_REQUEST = { 'idempotency-key': '[<id>]' };
