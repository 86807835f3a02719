import type { EarlierPayment } from '../earlier/earlier-payment';
import type { UseCase } from '../payment-vocabulary/use-case';
import type { StoredCredential } from '../processor-port/processor-port';
import { storedCredentialOf } from './stored-credential';

const earlier = (overrides: Partial<EarlierPayment>): EarlierPayment => ({
  use_case: 'guest_payment',
  customer: null,
  payment_method_id: null,
  store: null,
  payment_method: null,
  ...overrides,
});
const mandate = { payment_method_id: 'pm-new', type: 'npr_mandate', mandate_type: 'recurring_payments', reference: 'contract-7' } as const;

describe('the stored credential of a payment, as processors are told it', () => {
  it.each<[string, StoredCredential, UseCase, EarlierPayment | undefined]>([
    ['a newer-interface one-off payment', 'none', 'ONE_OFF', undefined],
    ['an earlier guest payment (rule 1)', 'none', 'ONE_OFF', earlier({})],
    [
      'an earlier payment that stores the card for COF payments (rule 2)',
      'storing',
      'ONE_OFF',
      earlier({ store: { payment_method_id: 'pm-new', type: 'card' } }),
    ],
    ['an earlier COF payment with a stored card (rule 3)', 'stored', 'ONE_OFF', earlier({ use_case: 'cof_payment', payment_method_id: 'pm-1' })],
    ['an earlier first payment with a new card (rule 4)', 'storing', 'RECURRING', earlier({ use_case: 'first_payment', store: mandate })],
    [
      'an earlier first payment from a stored card (rule 5)',
      'stored',
      'UNSCHEDULED',
      earlier({ use_case: 'first_payment', payment_method_id: 'pm-1', store: mandate }),
    ],
    [
      'an earlier merchant-initiated payment on a mandate (rule 6)',
      'stored',
      'SUBSEQUENT_RECURRING',
      earlier({ use_case: 'recurring_payment', payment_method_id: 'pm-mandate' }),
    ],
    ['a newer-interface initial recurring payment', 'storing', 'RECURRING', undefined],
    ['a newer-interface subsequent unscheduled payment', 'stored', 'SUBSEQUENT_UNSCHEDULED', undefined],
  ])('when %s is authorized, then its card details are %s', (_, expected, use_case, earlierPart) => {
    expect(storedCredentialOf({ use_case, ...(earlierPart ? { earlier: earlierPart } : {}) })).toBe(expected);
  });
});
