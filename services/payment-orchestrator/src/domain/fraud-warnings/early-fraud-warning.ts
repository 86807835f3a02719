import { NotFoundError, type Mode } from '@vaultline/core';
import type { FRAUD_TYPES } from '@vaultline/contracts';

/**
 * An issuer's report that a payment was fraudulent (Visa TC40, Mastercard SAFE), as Stripe's early fraud
 * warnings and Adyen's NOTIFICATION_OF_FRAUD carry it. Not a dispute: nothing is debited and nothing can be
 * answered; it tells the merchant that a chargeback may follow, so refunding now (or stopping delivery) may
 * avoid it. `actionable`: the payment can still be refunded to head a dispute off (Stripe's word for it).
 */
export interface EarlyFraudWarning {
  id: string;
  merchant_id: string;
  mode: Mode;
  version: number;
  payment_id: string;
  /** The processor account (or `simulator`) that reported it: processor references are unique per account. */
  processor: string;
  processor_reference: string;
  fraud_type: FraudType;
  actionable: boolean;
  /** The notifications applied so far (their dedupe keys): a redelivery finds its own key and changes nothing. */
  applied: string[];
  created_at: string;
  updated_at: string;
}

/** The fraud types in Stripe's words (its early fraud warning's fraud_type; FRAUD_TYPES in libs/contracts). */
export type FraudType = (typeof FRAUD_TYPES)[number];

/** What one processor notification says about a warning, normalised by the processor's plugin. */
export interface EarlyFraudWarningSignal {
  /** The processor's identity of the warning (Stripe's issfr_ id, Adyen's pspReference of the NOTIFICATION_OF_FRAUD item). */
  processor_reference: string;
  /** The payment it is about: our payment id, or the processor's own reference of it (Stripe's PaymentIntent). */
  payment_reference: string;
  fraud_type: FraudType;
  /** Stripe says; for a processor that does not, null: actionable while the payment can still be refunded. */
  actionable: boolean | null;
}

export type EarlyFraudWarningChange = 'early_fraud_warning.created' | 'early_fraud_warning.updated';

export interface EarlyFraudWarningMove {
  warning: Omit<EarlyFraudWarning, 'version'>;
  changes: EarlyFraudWarningChange[];
}

/**
 * The warning after a signal (pure). Null when the signal changes nothing (a redelivery). A first signal
 * creates the warning; a later one (Stripe's radar.early_fraud_warning.updated) moves what the processor
 * says changed: `actionable` and the fraud type, with early_fraud_warning.updated.
 */
export function applyFraudWarningSignal(
  current: EarlyFraudWarning | null,
  signal: EarlyFraudWarningSignal,
  context: { id: string; merchantId: string; mode: Mode; paymentId: string; processor: string; dedupeKey: string; at: Date; refundable: boolean },
): EarlyFraudWarningMove | null {
  const at = context.at.toISOString();
  const actionable = signal.actionable ?? context.refundable;
  if (!current) {
    return {
      warning: {
        id: context.id,
        merchant_id: context.merchantId,
        mode: context.mode,
        payment_id: context.paymentId,
        processor: context.processor,
        processor_reference: signal.processor_reference,
        fraud_type: signal.fraud_type,
        actionable,
        applied: [context.dedupeKey],
        created_at: at,
        updated_at: at,
      },
      changes: ['early_fraud_warning.created'],
    };
  }
  if (current.applied.includes(context.dedupeKey)) return null;
  const applied = [...current.applied, context.dedupeKey];
  if (current.actionable === actionable && current.fraud_type === signal.fraud_type) return { warning: { ...current, applied }, changes: [] };
  return { warning: { ...current, applied, actionable, fraud_type: signal.fraud_type, updated_at: at }, changes: ['early_fraud_warning.updated'] };
}

const FRAUD_WORDS: Array<[RegExp, FraudType]> = [
  [/never received|not received|non.?receipt|nri\b/i, 'card_never_received'],
  [/application/i, 'fraudulent_card_application'],
  [/counterfeit|skimm/i, 'made_with_counterfeit_card'],
  [/lost/i, 'made_with_lost_card'],
  [/stolen/i, 'made_with_stolen_card'],
  [/account number|card.not.present|takeover|unauthori[sz]ed|fraudulent use/i, 'unauthorized_use_of_card'],
];

/**
 * An issuer's fraud type in Stripe's words, from the processor's text (Adyen's `reason`, such as "Fraudulent
 * Use of Account Number", the TC40/SAFE fraud type's name); `misc` when none fits.
 */
export function fraudTypeOf(text: string | null | undefined): FraudType {
  if (!text) return 'misc';
  return FRAUD_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? 'misc';
}

export class EarlyFraudWarningNotFound extends NotFoundError {
  constructor() {
    super('early_fraud_warning');
  }
}
