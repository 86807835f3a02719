import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Dispute } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Badge, PageHeader, Time } from '../../components/page';
import { money, words } from '../../format';

export function DisputesPage() {
  const { clients } = useApp();
  return (
    <>
      <PageHeader title="Disputes" />
      <DataList
        label="disputes"
        deps={[]}
        load={(cursor) => clients.merchant.get('/disputes', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Dispute>>}
        rowKey={(dispute) => dispute.id}
        empty="No disputes. Chargebacks appear here when a processor reports one."
        columns={[
          { header: 'Dispute', cell: (dispute) => <code>{dispute.id}</code> },
          { header: 'Payment', cell: (dispute) => <a href={`#/payments/${dispute.payment_id}`}>{dispute.payment_id}</a> },
          { header: 'Amount', numeric: true, cell: (dispute) => money(dispute.amount, dispute.currency_code) },
          { header: 'Status', cell: (dispute) => <Badge value={dispute.status} /> },
          { header: 'Reason', cell: (dispute) => words(dispute.reason) },
          { header: 'Updated', cell: (dispute) => <Time at={dispute.updated_at} /> },
        ]}
      />
    </>
  );
}
