// Flow-matrix decisions per second on one core: the pure chooseFlow over a 50-rule matrix, beside a
// baseline measured in the same run (the cheapest possible first-match walk over 50 rules: one string
// comparison per rule). Target: ≥ 100,000 decisions/s.
import { chooseFlow, type FlowMatrix, type PaymentFacts } from '../services/payment-orchestrator/src/domain/flows/flow-matrix';
import type { UseCase } from '../services/payment-orchestrator/src/domain/payment-vocabulary/use-case';

const RULES = 50;
const PAYMENTS = 1_024;
const DURATION_MS = Number(process.env.BENCH_FLOW_MATRIX_MS ?? 2_000);
const ROUNDS = 3;

const useCases: UseCase[] = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'];
const currencies = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'JPY', 'PLN', 'DKK'];
const schemes = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER'];

/** 50 rules mixing every condition kind, each narrow, so a typical payment walks far down the list. */
function matrixOf(): FlowMatrix {
  const rules: FlowMatrix['rules'] = [];
  for (let i = 0; i < RULES; i++) {
    const when: FlowMatrix['rules'][number]['when'] = {};
    // Each rule owns an amount band, so winners spread over the whole list (a payment walks ~25 rules).
    when.currency_code = [0, 1, 2, 3].map((k) => currencies[(i + k) % currencies.length]!);
    when.amount_gte = i * 6_000;
    when.amount_lte = (i + 1) * 6_000 - 1;
    if (i % 4 === 0) when.use_case = [useCases[i % useCases.length]!, useCases[(i + 2) % useCases.length]!];
    if (i % 5 === 0) when.reference_prefix = `shop-${i % 7}-`;
    if (i % 6 === 0) when.scheme = [schemes[i % schemes.length]!];
    if (i % 7 === 0) when.metadata = { channel: i % 2 === 0 ? 'web' : 'app', tier: `t${i % 3}` };
    rules.push({ name: `rule-${i}`, when, flow: i % 2 === 0 ? 'simulator_manual_capture' : 'simulator_auto_capture' });
  }
  return { version: 7, default_flow: 'simulator_auto_capture', rules, updated_at: null };
}

function paymentsOf(): PaymentFacts[] {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed % n;
  };
  return Array.from({ length: PAYMENTS }, () => ({
    use_case: useCases[next(useCases.length)]!,
    currency_code: currencies[next(currencies.length)]!,
    amount: 100 + next(300_000),
    reference: `shop-${next(7)}-${next(100_000)}`,
    scheme: next(4) === 0 ? null : schemes[next(schemes.length)]!,
    metadata: next(2) === 0 ? null : { channel: next(2) === 0 ? 'web' : 'app', tier: `t${next(3)}` },
  }));
}

function measure(decide: (facts: PaymentFacts) => unknown, payments: PaymentFacts[]): { perSecond: number; sink: number } {
  let count = 0;
  let sink = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(DURATION_MS) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < PAYMENTS; i++) if (decide(payments[i]!) !== null) sink++;
    count += PAYMENTS;
    now = process.hrtime.bigint();
  }
  return { perSecond: (count * 1e9) / Number(now - start), sink };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

function main(): void {
  const matrix = matrixOf();
  const payments = paymentsOf();
  const baselineRules = matrix.rules.map((rule) => rule.when.currency_code![0]!);
  const baseline = (facts: PaymentFacts) => {
    for (let i = 0; i < baselineRules.length; i++) if (baselineRules[i] === facts.reference) return i;
    return null;
  };
  const decide = (facts: PaymentFacts) => chooseFlow(matrix, facts);
  const winners = new Map<string, number>();
  for (const facts of payments) {
    const rule = chooseFlow(matrix, facts).rule ?? '(default)';
    winners.set(rule, (winners.get(rule) ?? 0) + 1);
  }
  measure(decide, payments); // warm-up
  measure(baseline, payments);
  const ours: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    base.push(measure(baseline, payments).perSecond);
    ours.push(measure(decide, payments).perSecond);
  }
  const decisions = median(ours);
  const floor = median(base);
  console.log(
    `${RULES}-rule matrix, ${PAYMENTS} distinct payments, ${ROUNDS} alternating rounds of ${DURATION_MS} ms, one core; ${winners.get('(default)') ?? 0} of ${PAYMENTS} payments fall through to the default, ${winners.size - 1} distinct rules win the rest`,
  );
  console.log(`baseline (50 string comparisons, no rule logic): ${fmt(floor)} walks/s (rounds: ${base.map(fmt).join(', ')})`);
  console.log(`chooseFlow                                    : ${fmt(decisions)} decisions/s (rounds: ${ours.map(fmt).join(', ')}) (target ≥ 100,000/s)`);
  console.log(`ratio chooseFlow/baseline                     : ${((decisions / floor) * 100).toFixed(1)} %`);
  if (decisions < 100_000) process.exitCode = 1;
}

main();
