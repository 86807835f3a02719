import { type Payment } from './payment';
import { isConsumerPresent } from '../payment-vocabulary/use-case';
import type { StoredCredential } from '../processor-port/processor-port';

/** The stored credential of a payment's authorization (see StoredCredential for the cases). */
export function storedCredentialOf(payment: Pick<Payment, 'use_case' | 'earlier'>): StoredCredential {
  if (!isConsumerPresent(payment.use_case)) return 'stored';
  if (payment.earlier?.payment_method_id) return 'stored';
  if (payment.use_case !== 'ONE_OFF' || payment.earlier?.store?.type === 'card') return 'storing';
  return 'none';
}
