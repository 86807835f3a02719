import type { ProcessorPayment } from '../../domain/processor-port/processor-port';
import { drawOf, simulate } from './simulator-bank';
import { SIMULATOR_DECLINES, simulatorDecline } from './simulator.declines';
import { fromSimulatorAuthorizationResponse, toSimulatorRequest, type SimulatorAccount } from './simulator.mapper';

const LISTED: Array<[code: string, category: string, ours: string]> = [
  ['card_declined', 'do_not_honor', 'card_declined'],
  ['insufficient_funds', 'insufficient_funds', 'insufficient_funds'],
  ['authentication_required', 'authentication_required', 'authentication_required'],
  ['stolen_card', 'lost_or_stolen', 'card_blocked'],
];

const payment = (masked: string, overrides: Partial<ProcessorPayment> = {}): ProcessorPayment => ({
  payment_id: 'p1',
  merchant_id: 'm1',
  mode: 'test',
  use_case: 'ONE_OFF',
  stored_credential: 'none',
  amount: 1250,
  currency_code: 'EUR',
  reference: null,
  token_id: 't1',
  masked_account_number: masked,
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: 'p1:authorization',
  effective_at: '2026-06-01T10:00:00.000Z',
  ...overrides,
});
const authorize = (masked: string, overrides: Partial<ProcessorPayment> = {}, account?: SimulatorAccount) =>
  fromSimulatorAuthorizationResponse(simulate(toSimulatorRequest(payment(masked, overrides), 'authorization', account), 0));

describe("the simulator's declines", () => {
  it("when the table is compared with the simulator's codes, then it holds every one and no other", () => {
    expect(Object.keys(SIMULATOR_DECLINES).sort()).toEqual(LISTED.map(([code]) => code).sort());
  });

  it.each(LISTED)('when the simulator declines with %s, then the decline is %s, code %s', (code, category, ours) => {
    expect(simulatorDecline(code)).toMatchObject({ category, code: ours, processor_code: code });
  });

  it.each([
    ['400000******0002', 'card_declined', 'do_not_honor', true],
    ['400000******9995', 'insufficient_funds', 'insufficient_funds', true],
    ['400000******3184', 'authentication_required', 'authentication_required', true],
    ['400000******9979', 'card_blocked', 'lost_or_stolen', false],
  ] as const)('when test card %s is authorized, then it fails %s with a %s decline (retryable %s)', (masked, reason, category, retryable) => {
    expect(authorize(masked)).toMatchObject({ status: 'failed', failure_reason: reason, decline: { category, retryable } });
  });

  it('when 4000 0027 6000 3184 is authorized with a challenge asked for (three_ds always, a step-up), then the issuer challenges instead of declining, and completing it approves', () => {
    const told = {
      consumer_authentication: { three_ds: 'always' as const, browser: null, return_url: 'http://127.0.0.1:9/checkout/s/return', first_of_series: false },
    };
    expect(authorize('400000******3184', told)).toMatchObject({ status: 'action_required' });
    const resumed = simulate({ ...toSimulatorRequest(payment('400000******3184', told), 'authorization_resume'), challenge_result: 'completed' }, 0);
    expect(resumed).toMatchObject({ result: 'approved' });
  });

  it.each([
    ['400000******0341', 'insufficient_funds', null, true],
    ['510510******5100', 'card_declined', '03', false],
  ] as const)(
    'when card %s is charged by the merchant (a subsequent payment), then it is declined %s with advice %s (retryable %s); with the consumer present it is approved',
    (masked, reason, advice, retryable) => {
      expect(authorize(masked, { use_case: 'SUBSEQUENT_UNSCHEDULED' })).toMatchObject({
        status: 'failed',
        failure_reason: reason,
        decline: { advice_code: advice, retryable },
      });
      expect(authorize(masked)).toMatchObject({ status: 'succeeded' });
    },
  );

  it("when a simulator account's approval_rate is 0.8, then about 80 % of ordinary cards are approved, the same ones every time, and the rest are declined card_declined", () => {
    const account = { id: 'acct_a', approval_rate: 0.8, outages: [] };
    const outcomes = Array.from({ length: 2000 }, (_, n) => authorize('424242******4242', { idempotency_key: `p${n}:authorization` }, account).status);
    const approved = outcomes.filter((status) => status === 'succeeded').length / 2000;
    expect(approved).toBeGreaterThan(0.77);
    expect(approved).toBeLessThan(0.83);
    expect(authorize('424242******4242', { idempotency_key: 'p7:authorization' }, account)).toEqual(
      authorize('424242******4242', { idempotency_key: 'p7:authorization' }, account),
    );
    expect(outcomes.find((status) => status === 'failed')).toBeDefined();
  });

  it('when two accounts have the same approval rate, then they decline different payments (independent draws)', () => {
    const keys = Array.from({ length: 200 }, (_, n) => `p${n}:authorization`);
    expect(keys.filter((key) => drawOf('acct_a', key) >= 0.5 !== drawOf('acct_b', key) >= 0.5).length).toBeGreaterThan(50);
  });

  it("when the payment's effective time is inside an account's outage window, then it answers nothing (processor_unavailable); outside it, it answers", () => {
    const account = { id: 'acct_a', approval_rate: 1, outages: [{ from: '2026-06-01T09:55:00.000Z', to: '2026-06-01T10:00:00.000Z' }] };
    expect(authorize('424242******4242', { effective_at: '2026-06-01T09:57:00.000Z' }, account)).toEqual({
      status: 'error',
      failure_reason: 'processor_unavailable',
    });
    expect(authorize('424242******4242', { effective_at: '2026-06-01T10:00:00.000Z' }, account)).toMatchObject({ status: 'succeeded' });
  });
});
