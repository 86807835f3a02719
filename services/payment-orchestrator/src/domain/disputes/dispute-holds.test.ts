import { ManualClock, type Scope } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { StoreDisputeRepository } from '../../data/dispute.repository';
import { StorePaymentRepository } from '../../data/payment.repository';
import { StoreRefundRepository } from '../../data/refund.repository';
import { StoreProcessorNotificationRepository } from '../../data/processor-account.repository';
import { orchestratorCollections } from '../../data/collections';
import type { Payment } from '../payment/payment';
import { createRefund } from '../refunds/create-refund';
import { PaymentDisputed } from '../refunds/refund';
import { recordDispute } from './record-dispute';
import type { DisputeSignal } from './dispute';

const SCOPE: Scope = { merchantId: 'm1', mode: 'test' };
const ACCOUNT = { id: 'acc-1', merchant_id: 'm1', mode: 'test' as const };

const captured = (): Omit<Payment, 'version'> =>
  ({
    id: '01a208ee-5f6c-74c8-b99c-a50679101e09',
    merchant_id: 'm1',
    mode: 'test',
    use_case: 'ONE_OFF',
    status: 'captured',
    amount: { requested: 1000, authorized: 1000, captured: 1000 },
    currency_code: 'EUR',
    reference: null,
    metadata: null,
    created_at: '2026-06-01T10:00:00.000Z',
    updated_at: '2026-06-01T10:00:00.000Z',
    session: null,
    credential_id: null,
    initial_payment_id: null,
    authentication_preference: null,
    recurring_frequency: null,
    recurring_expiry: null,
    source: null,
    card_scheme: null,
    token_id: 't1',
    network_transaction_reference: null,
    decision: null,
    progress: { next_step: 2, authorized_by: 'acc-1', authorization_reference: 'pi_1', capture: null, transactions: 2 },
    next_run_at: null,
    failure_reason: null,
  }) as Omit<Payment, 'version'>;

const notification = (account: string) => ({
  id: `n-${account}`,
  merchant_id: 'm1',
  mode: 'test' as const,
  account_id: account,
  processor: 'stripe',
  status: 'accepted' as const,
  dedupe_key: `k-${account}`,
  kind: 'dispute',
  payment_reference: 'pi_1',
  processor_reference: 'dp_1',
  capture_reference: null,
  failure_reason: null,
  refusal: null,
  received_at: '2026-06-02T10:00:00.000Z',
});
const chargeback: DisputeSignal = {
  processor_reference: 'dp_1',
  payment_reference: 'pi_1',
  status: 'needs_response',
  stage: 2,
  amount: 1000,
  currency_code: 'EUR',
  reason: 'fraudulent',
  event: 'charge.dispute.created',
};

async function world() {
  const store = new MemoryDocumentStore();
  for (const spec of orchestratorCollections) await store.register(spec);
  const payments = new StorePaymentRepository(store);
  const clock = new ManualClock('2026-06-02T10:00:00.000Z');
  const transaction = <T>(work: Parameters<typeof store.transaction<T>>[0]) => store.transaction(work);
  await store.transaction((uow) => payments.insert(uow, captured()));
  const record = recordDispute({
    payments,
    disputes: new StoreDisputeRepository(store),
    notifications: new StoreProcessorNotificationRepository(store),
    transaction,
    clock,
  });
  return { store, payments, clock, transaction, record };
}

describe('a refund and a chargeback on one payment', () => {
  it("when a chargeback commits between the refund reading the payment and writing it, then the refund's commit fails on the payment's version and, read again, is refused 409 payment_disputed", async () => {
    const { store, payments, clock, transaction, record } = await world();
    let reads = 0;
    const racing = {
      get: async (scope: Scope, id: string) => {
        const payment = await payments.get(scope, id);
        // The chargeback lands right after the refund's first read, before its commit.
        if (reads++ === 0) await record(ACCOUNT, notification(ACCOUNT.id), chargeback);
        return payment;
      },
      updateSettled: payments.updateSettled.bind(payments),
    };
    const refund = createRefund(
      { payments: racing as unknown as StorePaymentRepository, refunds: new StoreRefundRepository(store), transaction, clock, requestRetentionMs: 0 },
      () => undefined,
    );
    await expect(refund(SCOPE, { paymentId: captured().id, amount: 500, currencyCode: null, reference: null, reason: null })).rejects.toThrow(PaymentDisputed);
    expect(reads).toBe(2);
    expect(Object.values((await payments.get(SCOPE, captured().id))!.dispute_holds ?? {})).toEqual([1000]);
  });

  it('when the chargeback is reported by an account that did not authorize the payment, then nothing is held; by the account that did, its amount is', async () => {
    const { payments, record } = await world();
    expect(await record({ ...ACCOUNT, id: 'acc-other' }, notification('acc-other'), chargeback)).toBeNull();
    expect(await record(ACCOUNT, notification(ACCOUNT.id), chargeback)).toMatchObject({ payment_id: captured().id, status: 'needs_response' });
    expect(Object.values((await payments.get(SCOPE, captured().id))!.dispute_holds ?? {})).toEqual([1000]);
  });
});
