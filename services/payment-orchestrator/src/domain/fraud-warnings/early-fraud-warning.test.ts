import { applyFraudWarningSignal, fraudTypeOf, type EarlyFraudWarning, type EarlyFraudWarningSignal } from './early-fraud-warning';

const signal = (overrides: Partial<EarlyFraudWarningSignal> = {}): EarlyFraudWarningSignal => ({
  processor_reference: 'issfr_1',
  payment_reference: 'pi_1',
  fraud_type: 'made_with_stolen_card',
  actionable: true,
  ...overrides,
});
const context = (dedupeKey: string, refundable = true) => ({
  id: 'w1',
  merchantId: 'm1',
  mode: 'test' as const,
  paymentId: 'pay-1',
  processor: 'acc-1',
  dedupeKey,
  at: new Date('2026-06-02T10:00:00.000Z'),
  refundable,
});

describe('an early fraud warning moved by processor signals', () => {
  it('when the first signal arrives, then the warning is created with early_fraud_warning.created', () => {
    const move = applyFraudWarningSignal(null, signal(), context('k1'))!;
    expect([move.warning.fraud_type, move.warning.actionable, move.changes]).toEqual(['made_with_stolen_card', true, ['early_fraud_warning.created']]);
  });

  it('when the processor does not say whether it is actionable (Adyen), then it is while the payment can still be refunded', () => {
    expect(applyFraudWarningSignal(null, signal({ actionable: null }), context('k1', false))!.warning.actionable).toBe(false);
    expect(applyFraudWarningSignal(null, signal({ actionable: null }), context('k1', true))!.warning.actionable).toBe(true);
  });

  it('when an update says it is no longer actionable, then early_fraud_warning.updated; the same update again changes nothing', () => {
    const created: EarlyFraudWarning = { ...applyFraudWarningSignal(null, signal(), context('k1'))!.warning, version: 1 };
    const updated = applyFraudWarningSignal(created, signal({ actionable: false }), context('k2'))!;
    expect([updated.warning.actionable, updated.changes]).toEqual([false, ['early_fraud_warning.updated']]);
    expect(applyFraudWarningSignal({ ...updated.warning, version: 2 }, signal({ actionable: false }), context('k2'))).toBeNull();
    expect(applyFraudWarningSignal({ ...updated.warning, version: 2 }, signal({ actionable: false }), context('k3'))!.changes).toEqual([]);
  });
});

describe("fraud types in Stripe's words", () => {
  it.each([
    ['Fraudulent Use of Account Number', 'unauthorized_use_of_card'],
    ['Card Reported Lost', 'made_with_lost_card'],
    ['Card Reported Stolen', 'made_with_stolen_card'],
    ['Card Not Received as Issued (NRI)', 'card_never_received'],
    ['Fraudulent Application', 'fraudulent_card_application'],
    ['Issuer-reported Counterfeit', 'made_with_counterfeit_card'],
    ['Miscellaneous', 'misc'],
    [null, 'misc'],
  ])('when the issuer says %p, then the fraud type is %p', (text, type) => {
    expect(fraudTypeOf(text)).toBe(type);
  });
});
