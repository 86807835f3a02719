import { type Payment } from './payment';
import { isConsumerPresent } from './use-case';

/**
 * Whether the card details of an authorization are stored credentials, as card schemes define them
 * (processors must flag each case differently):
 * - `none`: a guest payment; the details serve this payment only;
 * - `storing`: the consumer, present, agrees now that the details are kept for later payments (a card
 *   stored for COF payments, earlier rule 2; the initial payment of a recurring or unscheduled series);
 * - `stored`: the details were stored by an earlier payment (a COF payment with a stored card, earlier
 *   rule 3; a mandate made from a stored card, rule 5; every merchant-initiated payment).
 */
export type StoredCredential = 'none' | 'storing' | 'stored';

export function storedCredentialOf(payment: Pick<Payment, 'use_case' | 'earlier'>): StoredCredential {
  if (!isConsumerPresent(payment.use_case)) return 'stored';
  if (payment.earlier?.payment_method_id) return 'stored';
  if (payment.use_case !== 'ONE_OFF' || payment.earlier?.store?.type === 'card') return 'storing';
  return 'none';
}
