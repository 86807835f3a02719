import type { ProcessorPayment } from '../../domain/processor-port/processor-port';
import { behaviourOf, simulate } from './simulator-bank';
import { fromSimulatorResponse, toSimulatorRequest } from './simulator.mapper';

const payment = (masked: string, overrides: Partial<ProcessorPayment> = {}): ProcessorPayment => ({
  payment_id: 'p1',
  merchant_id: 'm1',
  mode: 'test',
  use_case: 'ONE_OFF',
  stored_credential: 'none',
  amount: 1250,
  currency_code: 'EUR',
  reference: 'order-1',
  token_id: 't1',
  masked_account_number: masked,
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: 'p1:authorization',
  ...overrides,
});

describe('simulator mapping', () => {
  it('when a payment is mapped, then the request carries the amount, currency, reference, first six and last four digits and the idempotency key, nothing else of the card', () => {
    expect(toSimulatorRequest(payment('400000******0002', { network_transaction_reference: 'NTR1' }), 'authorization')).toEqual({
      operation: 'authorization',
      amount: { value: 1250, currency: 'EUR' },
      reference: 'order-1',
      card: { bin: '400000', last4: '0002' },
      idempotency_key: 'p1:authorization',
      network_transaction_reference: 'NTR1',
    });
  });

  it.each([
    ['400000******0002', 'card_declined'],
    ['400000******9995', 'insufficient_funds'],
    ['400000******3220', '3ri_fails'],
    ['400000******0259', 'capture_fails'],
    ['400000******0267', 'capture_fails_once'],
    ['400000******0119', 'processor_error'],
    ['400000******5126', 'refund_fails'],
    ['424242******4242', 'approved'],
    ['411111******0002', 'approved'],
  ])('when the card is %s, then the simulator behaves as %s', (masked, behaviour) => {
    const request = toSimulatorRequest(payment(masked), 'authorization');
    expect(behaviourOf(request.card)).toBe(behaviour);
  });

  it.each([
    ['424242******4242', 'authorization', { status: 'succeeded' }],
    ['400000******0002', 'authorization', { status: 'failed', failure_reason: 'card_declined' }],
    ['400000******9995', 'authorization', { status: 'failed', failure_reason: 'insufficient_funds' }],
    ['400000******3220', 'authorization', { status: 'succeeded' }],
    ['400000******3220', 'authentication_3ri', { status: 'failed', failure_reason: 'authentication_failed' }],
    ['424242******4242', 'authentication_3ri', { status: 'succeeded' }],
    ['400000******0119', 'authorization', { status: 'error', failure_reason: 'processor_unavailable' }],
    ['400000******0259', 'authorization', { status: 'succeeded' }],
    ['400000******0259', 'capture', { status: 'pending', poll_after_ms: 200 }],
    ['400000******0259', 'capture_status', { status: 'failed', failure_reason: 'capture_failed' }],
    ['424242******4242', 'capture_status', { status: 'succeeded' }],
    ['424242******4242', 'void', { status: 'succeeded' }],
    ['424242******4242', 'refund', { status: 'pending', poll_after_ms: 200 }],
    ['424242******4242', 'refund_status', { status: 'succeeded' }],
    ['400000******5126', 'capture_status', { status: 'succeeded' }],
    ['400000******5126', 'refund_status', { status: 'failed', failure_reason: 'refund_failed' }],
  ] as const)('when %s goes through %s, then the outcome is %j', (masked, operation, expected) => {
    expect(fromSimulatorResponse(simulate(toSimulatorRequest(payment(masked), operation), 200))).toMatchObject(expected);
  });

  it("when the capture-fails-once card (4000 0000 0000 0267) is captured, then the payment's first capture fails and a capture asked again (its own key) succeeds", () => {
    const asked = (key: string) =>
      fromSimulatorResponse(simulate(toSimulatorRequest(payment('400000******0267', { idempotency_key: key }), 'capture_status'), 0));
    expect(asked('p1:capture')).toMatchObject({ status: 'failed', failure_reason: 'capture_failed' });
    expect(asked('p1:capture:2')).toMatchObject({ status: 'succeeded' });
    expect(asked('p1:capture:3')).toMatchObject({ status: 'succeeded' });
  });

  it('when an authorization succeeds, then it returns a network transaction reference, and a merchant-initiated one keeps the initial reference', () => {
    const initial = fromSimulatorResponse(simulate(toSimulatorRequest(payment('424242******4242'), 'authorization'), 0));
    expect(initial).toMatchObject({ status: 'succeeded', network_transaction_reference: expect.stringMatching(/^SIMNTR/) });
    const mit = fromSimulatorResponse(
      simulate(toSimulatorRequest(payment('424242******4242', { network_transaction_reference: 'SIMNTR42' }), 'authorization'), 0),
    );
    expect(mit).toMatchObject({ network_transaction_reference: 'SIMNTR42' });
  });

  it('when each simulator answer is mapped back, then every result kind has its outcome', () => {
    expect(fromSimulatorResponse({ result: 'approved', psp_reference: 'r' })).toEqual({ status: 'succeeded', processor_reference: 'r' });
    expect(fromSimulatorResponse({ result: 'declined', psp_reference: 'r', decline_code: 'x' })).toEqual({
      status: 'failed',
      failure_reason: 'x',
      processor_reference: 'r',
    });
    expect(fromSimulatorResponse({ result: 'error', error_code: 'e' })).toEqual({ status: 'error', failure_reason: 'e' });
    expect(fromSimulatorResponse({ result: 'pending', psp_reference: 'r', check_after_ms: 5 })).toEqual({
      status: 'pending',
      processor_reference: 'r',
      poll_after_ms: 5,
    });
  });
});

describe('simulator references', () => {
  it('when references are made for many payments, then none holds a digit, so no scan can take one for a card number', () => {
    for (let i = 0; i < 2_000; i++) {
      const answer = simulate(
        {
          operation: 'authorization',
          amount: { value: 100, currency: 'EUR' },
          reference: null,
          idempotency_key: `${i}-2092748647059-${i}`,
          card: { bin: '424242', last4: '4242' },
          network_transaction_reference: null,
        },
        0,
      );
      const reference = 'psp_reference' in answer ? answer.psp_reference : '';
      expect(reference).toMatch(/^sim_[a-z]+$/);
    }
  });
});
