import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { EarlyFraudWarning } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { PageHeader, Time } from '../../components/page';
import { words } from '../../format';
import type { PageProps } from '../../router';

const FRAUD_TYPES = [
  'card_never_received',
  'fraudulent_card_application',
  'made_with_counterfeit_card',
  'made_with_lost_card',
  'made_with_stolen_card',
  'misc',
  'unauthorized_use_of_card',
];

export function EarlyFraudWarningsPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['fraud_type', 'actionable', 'payment_id']);
  return (
    <>
      <PageHeader title="Early fraud warnings" />
      <p class="hint">
        Issuers&apos; reports that a payment was fraudulent (Visa TC40, Mastercard SAFE). Not disputes: nothing is debited. Refunding an actionable one may head
        a chargeback off.
      </p>
      <FilterForm
        path="/early-fraud-warnings"
        query={query}
        fields={[
          { name: 'fraud_type', label: 'Fraud type', options: FRAUD_TYPES },
          { name: 'actionable', label: 'Actionable', options: ['true', 'false'], optionLabel: (value) => (value === 'true' ? 'yes' : 'no') },
          { name: 'payment_id', label: 'Payment id' },
        ]}
      />
      <DataList
        label="early fraud warnings"
        deps={[JSON.stringify(filters)]}
        load={(cursor) =>
          clients.merchant.get('/early-fraud-warnings', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<
            Page<EarlyFraudWarning>
          >
        }
        rowKey={(warning) => warning.id}
        empty="No early fraud warnings. They appear here when an issuer reports a payment as fraudulent."
        columns={[
          { header: 'Payment', cell: (warning) => <a href={`#/payments/${warning.payment_id}`}>{warning.payment_id}</a> },
          { header: 'Fraud type', cell: (warning) => words(warning.fraud_type) },
          { header: 'Actionable', cell: (warning) => (warning.actionable ? 'yes: refund it to avoid a dispute' : 'no') },
          { header: 'Reported', cell: (warning) => <Time at={warning.created_at} /> },
        ]}
      />
    </>
  );
}
