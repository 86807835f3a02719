import type { Payment } from '../../src/domain/payment/payment';

const NOW = new Date('2026-06-01T10:00:00.000Z');

/** A consumer-present one-off payment with its card in, at its authorization step (unit tests of the payment's rules). */
export function aPayment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'p1',
    merchant_id: 'm1',
    version: 3,
    mode: 'test',
    use_case: 'ONE_OFF',
    status: 'processing',
    amount: { requested: 1250 },
    currency_code: 'EUR',
    reference: null,
    metadata: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    session: { id: 's1', expires_at: '2026-06-01T10:30:00.000Z', return_url: null },
    credential_id: null,
    initial_payment_id: null,
    authentication_preference: null,
    recurring_frequency: null,
    recurring_expiry: null,
    source: null,
    card_scheme: 'VISA',
    token_id: 't1',
    network_transaction_reference: null,
    decision: null,
    progress: { next_step: 1, authorized_by: null, authorization_reference: null, capture: null, transactions: 0 },
    next_run_at: NOW.toISOString(),
    failure_reason: null,
    ...overrides,
  };
}
