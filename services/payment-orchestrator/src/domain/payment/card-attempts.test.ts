import { processorPayment } from './advance-payment';
import { anotherCardMayWork, awaitingAnotherCard, canTakeAnotherCard, endingReason } from './card-attempts';
import type { Payment } from './payment';
import { aPayment as aBasePayment } from '../../../test/support/payment-builder';

const NOW = new Date('2026-06-01T10:00:00.000Z');

const DECLINED_SOURCE: Payment['source'] = {
  type: 'card',
  cardholder_name: null,
  expiry_month: 12,
  expiry_year: 2034,
  masked_account_number: '400000******0002',
  pan_type: 'FPAN',
};
const aPayment = (overrides: Partial<Payment> = {}): Payment =>
  aBasePayment({
    source: DECLINED_SOURCE,
    progress: { next_step: 1, authorized_by: null, authorization_reference: null, capture: null, transactions: 2 },
    card_attempts: 1,
    ...overrides,
  });

describe('card attempts on the hosted page', () => {
  it.each(['card_declined', 'insufficient_funds', 'expired_card', 'authentication_failed', 'authentication_required', 'suspected_fraud'])(
    'when a card fails with %s, then another card may work',
    (reason) => {
      expect(anotherCardMayWork(reason)).toBe(true);
    },
  );

  it.each(['processor_error', 'processor_unavailable', 'processor_configuration', 'risk_declined', 'simulator_not_allowed_in_live_mode', 'capability_missing'])(
    'when the failure is %s, then another card would not help: the payment fails at once',
    (reason) => {
      expect(anotherCardMayWork(reason)).toBe(false);
    },
  );

  it('when the session has expired, or it shows a stored card, or the payment is merchant initiated, then no other card is taken', () => {
    expect(canTakeAnotherCard(aPayment(), 'card_declined', NOW)).toBe(true);
    expect(canTakeAnotherCard(aPayment(), 'card_declined', new Date('2026-06-01T10:30:00.000Z'))).toBe(false);
    expect(
      canTakeAnotherCard(
        aPayment({
          session: {
            id: 's1',
            expires_at: '2026-06-01T10:30:00.000Z',
            return_url: null,
            stored_card: {
              token_id: 't9',
              masked_account_number: '424242******4242',
              scheme: 'VISA',
              expiry_month: 1,
              expiry_year: 2030,
              cardholder_name: null,
              security_code_required: false,
            },
          },
        }),
        'card_declined',
        NOW,
      ),
    ).toBe(false);
    expect(canTakeAnotherCard(aPayment({ use_case: 'SUBSEQUENT_RECURRING', session: null }), 'card_declined', NOW)).toBe(false);
  });

  it("when a card fails, then the payment keeps waiting without it: no token, source or authentication, its flow from the first step, its transaction count kept, due at the session's expiry", () => {
    const waiting = awaitingAnotherCard(aPayment({ pending_authentication: null }), 'card_declined', null, NOW);
    expect(waiting).toMatchObject({
      status: 'processing',
      token_id: null,
      source: null,
      card_scheme: null,
      authentication: null,
      next_run_at: '2026-06-01T10:30:00.000Z',
    });
    expect(waiting.progress).toEqual({ next_step: 0, authorized_by: null, authorization_reference: null, capture: null, transactions: 2 });
    expect(waiting.last_failed_attempt).toEqual({
      number: 1,
      failure_reason: 'card_declined',
      masked_account_number: '400000******0002',
      failed_at: NOW.toISOString(),
    });
    expect(endingReason(waiting, 'session_expired')).toBe('card_declined');
    expect(endingReason(aPayment(), 'session_expired')).toBe('session_expired');
  });

  it("when the second card is authorized, then its processor requests carry idempotency keys of their own (the first card's declined answer is not replayed)", () => {
    const first = processorPayment(aPayment(), 'authorization', 1250, { processor: 'simulator', now: NOW });
    const second = processorPayment(aPayment({ card_attempts: 2 }), 'authorization', 1250, { processor: 'simulator', now: NOW });
    expect(first.idempotency_key).toBe('p1:authorization');
    expect(second.idempotency_key).toBe('p1:authorization:attempt-2');
  });
});
