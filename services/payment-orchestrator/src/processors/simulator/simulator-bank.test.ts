import { simulate } from './simulator-bank';
import type { SimulatorAccount, SimulatorRequest } from './simulator.mapper';

const authorization = (account: SimulatorAccount, reference: string | null, paymentId: string, attempt = ''): SimulatorRequest => ({
  operation: 'authorization',
  amount: { value: 1250, currency: 'EUR' },
  reference,
  card: { bin: '424242', last4: '4242' },
  idempotency_key: `${paymentId}:authorization${attempt}`,
  network_transaction_reference: null,
  account,
});
const references = Array.from({ length: 200 }, (_, i) => `order-${i}`);
/** The answers of an account to 200 payments with fresh ids (a new run), one letter each: a(pproved) or d(eclined). */
const run = (account: SimulatorAccount, run: string, attempt = '') =>
  references.map((reference, i) => (simulate(authorization(account, reference, `${run}-pay-${i}`, attempt), 0).result === 'approved' ? 'a' : 'd')).join('');

describe("a simulator account's approval_rate draw", () => {
  it('when an account has no seed, then two runs (new account and payment ids) decline different payments, each about the rate', () => {
    const first = run({ id: 'acct-run-1', approval_rate: 0.5, outages: [] }, 'r1');
    const second = run({ id: 'acct-run-2', approval_rate: 0.5, outages: [] }, 'r2');
    expect(first).not.toBe(second);
    for (const answers of [first, second]) expect(answers.split('a').length - 1).toBeGreaterThan(70);
  });

  it('when two runs use accounts with the same seed, then the same references get the same answers, whatever the ids', () => {
    const first = run({ id: 'acct-run-1', approval_rate: 0.5, outages: [], seed: 'sim-a' }, 'r1');
    expect(run({ id: 'acct-run-2', approval_rate: 0.5, outages: [], seed: 'sim-a' }, 'r2')).toBe(first);
    expect(first.split('a').length - 1).toBeGreaterThan(70);
    expect(first.split('d').length - 1).toBeGreaterThan(70);
  });

  it('when two accounts have different seeds, then they decline independently; a later attempt of a payment draws anew', () => {
    const a = run({ id: 'acct-a', approval_rate: 0.5, outages: [], seed: 'sim-a' }, 'r1');
    expect(run({ id: 'acct-b', approval_rate: 0.5, outages: [], seed: 'sim-b' }, 'r1')).not.toBe(a);
    expect(run({ id: 'acct-a', approval_rate: 0.5, outages: [], seed: 'sim-a' }, 'r1', ':attempt-2')).not.toBe(a);
  });
});
