import { ValidationError } from '@vaultline/core';
import type { Processors } from '../processor-port/processor-port';
import { BUILT_IN_FLOWS } from './flow';
import { EMPTY_MATRIX, chooseFlow, validateFlowMatrix, type FlowMatrix, type PaymentFacts } from './flow-matrix';

const facts = (overrides: Partial<PaymentFacts> = {}): PaymentFacts => ({
  use_case: 'ONE_OFF',
  currency_code: 'EUR',
  amount: 1000,
  reference: 'order-1',
  scheme: null,
  metadata: null,
  ...overrides,
});
const matrix = (rules: FlowMatrix['rules'], default_flow = 'simulator_auto_capture'): FlowMatrix => ({ version: 3, default_flow, rules, updated_at: null });
const M = 'simulator_manual_capture';

describe('chooseFlow', () => {
  it('when the merchant set nothing, then simulator_auto_capture is chosen by no rule at version 0', () => {
    expect(chooseFlow(EMPTY_MATRIX, facts())).toEqual({ flow: 'simulator_auto_capture', rule: null, matrix_version: 0 });
  });

  it('when two rules hold, then the first in order wins', () => {
    const m = matrix([
      { name: 'first', when: { currency_code: ['EUR'] }, flow: M },
      { name: 'second', when: {}, flow: 'x' },
    ]);
    expect(chooseFlow(m, facts())).toEqual({ flow: M, rule: 'first', matrix_version: 3 });
  });

  it('when one condition of a rule does not hold, then the rule does not win', () => {
    const m = matrix([{ name: 'r', when: { currency_code: ['EUR'], amount_gte: 5000 }, flow: M }]);
    expect(chooseFlow(m, facts({ amount: 4999 })).rule).toBeNull();
    expect(chooseFlow(m, facts({ amount: 5000 })).rule).toBe('r');
  });

  it.each([
    [{ use_case: ['RECURRING' as const] }, facts({ use_case: 'RECURRING' }), facts()],
    [{ currency_code: ['USD'] }, facts({ currency_code: 'USD' }), facts()],
    [{ amount_gte: 100 }, facts({ amount: 100 }), facts({ amount: 99 })],
    [{ amount_lte: 100 }, facts({ amount: 100 }), facts({ amount: 101 })],
    [{ reference_prefix: 'manual-' }, facts({ reference: 'manual-1' }), facts({ reference: null })],
    [{ scheme: ['VISA'] }, facts({ scheme: 'visa' }), facts({ scheme: null })],
    [{ metadata: { tier: 'vip' } }, facts({ metadata: { tier: 'vip', x: 'y' } }), facts({ metadata: { tier: 'std' } })],
  ])('when the condition is %j, then it holds for the first payment and not the second', (when, holds, fails) => {
    const m = matrix([{ name: 'r', when, flow: M }]);
    expect(chooseFlow(m, holds).rule).toBe('r');
    expect(chooseFlow(m, fails).rule).toBeNull();
  });
});

describe('validateFlowMatrix', () => {
  const processors: Processors = { get: (id) => (id === 'simulator' ? ({ id } as never) : undefined), ids: () => ['simulator'] };
  const flows = (name: string) =>
    BUILT_IN_FLOWS[name] ??
    (name === 'ghost'
      ? {
          ...BUILT_IN_FLOWS.simulator_auto_capture!,
          name,
          steps: [{ kind: 'authorization' as const, processor: 'gone', on_failure: 'stop' as const, fallback: [] }],
        }
      : undefined);
  const problem = (rules: Array<{ name: string; when: Record<string, unknown>; flow: string }>) => {
    try {
      validateFlowMatrix({ default_flow: 'simulator_auto_capture', rules }, flows, processors);
    } catch (error) {
      return error as ValidationError;
    }
    throw new Error('expected a refusal');
  };

  it('when a rule names an unknown flow, then the problem is unknown_flow naming the rule', () => {
    expect(problem([{ name: 'r1', when: {}, flow: 'nope' }])).toMatchObject({ code: 'unknown_flow', extensions: { field: 'rules[0].flow', rule: 'r1' } });
  });

  it("when a rule's flow uses an unknown processor, then the problem is unknown_processor naming the rule", () => {
    expect(problem([{ name: 'r1', when: {}, flow: 'ghost' }])).toMatchObject({ code: 'unknown_processor', extensions: { rule: 'r1' } });
  });

  it('when a rule has an unknown condition key, then the problem is unknown_condition naming the rule', () => {
    expect(problem([{ name: 'r1', when: { country: ['NL'] }, flow: M }])).toMatchObject({
      code: 'unknown_condition',
      extensions: { field: 'rules[0].when.country', rule: 'r1' },
    });
  });

  it('when a valid matrix is given, then scheme values are upper-cased and the rules kept in order', () => {
    const valid = validateFlowMatrix(
      {
        default_flow: M,
        rules: [
          { name: 'a', when: { scheme: ['visa'] }, flow: M },
          { name: 'b', when: {}, flow: M },
        ],
      },
      flows,
      processors,
    );
    expect(valid.rules.map((r) => r.name)).toEqual(['a', 'b']);
    expect(valid.rules[0]!.when.scheme).toEqual(['VISA']);
  });
});
