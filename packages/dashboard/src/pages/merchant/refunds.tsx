import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Refund } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { Badge, PageHeader, Time } from '../../components/page';
import { money, words } from '../../format';
import type { PageProps } from '../../router';

export function RefundsPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['status', 'payment_id']);
  return (
    <>
      <PageHeader title="Refunds" />
      <FilterForm
        path="/refunds"
        query={query}
        fields={[
          { name: 'status', label: 'Status', options: ['pending', 'succeeded', 'failed'] },
          { name: 'payment_id', label: 'Payment id' },
        ]}
      />
      <DataList
        label="refunds"
        deps={[JSON.stringify(filters)]}
        load={(cursor) =>
          clients.merchant.get('/refunds', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Refund>>
        }
        rowKey={(refund) => refund.id}
        empty="No refunds yet."
        columns={[
          { header: 'Refund', cell: (refund) => <code>{refund.id}</code> },
          { header: 'Payment', cell: (refund) => <a href={`#/payments/${refund.payment_id}`}>{refund.payment_id}</a> },
          { header: 'Amount', numeric: true, cell: (refund) => money(refund.amount, refund.currency_code) },
          { header: 'Status', cell: (refund) => <Badge value={refund.status} /> },
          { header: 'Reason', cell: (refund) => words(refund.reason ?? refund.failure_reason) },
          { header: 'Created', cell: (refund) => <Time at={refund.created_at} /> },
        ]}
      />
    </>
  );
}
