import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import { flowOf, requestedAmount, shownStatus } from '../../api/payments';
import type { Payment } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { Badge, PageHeader, Time } from '../../components/page';
import { money, words } from '../../format';
import type { PageProps } from '../../router';

const PAYMENT_STATUSES = ['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled'];
const USE_CASES = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'];
const FILTERS = ['status', 'reference', 'customer_id', 'use_case', 'created_gte', 'created_lte', 'order'];

/** A date picked in a filter (2026-11-26) as the bound the API compares with: the day's start, or its end. */
function dayBound(day: string | undefined, end: boolean): string | undefined {
  if (!day) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : day;
}

export function PaymentsPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, FILTERS);
  const load = (cursor: string | undefined) =>
    clients.merchant.get('/payments', {
      params: {
        query: {
          ...filters,
          created_gte: dayBound(filters.created_gte, false),
          created_lte: dayBound(filters.created_lte, true),
          limit: PAGE_SIZE,
          ...(cursor ? { starting_after: cursor } : {}),
        },
      },
    }) as Promise<Page<Payment>>;
  return (
    <>
      <PageHeader title="Payments" />
      <FilterForm
        path="/payments"
        query={query}
        fields={[
          { name: 'reference', label: 'Reference' },
          { name: 'status', label: 'Status', options: PAYMENT_STATUSES },
          { name: 'customer_id', label: 'Customer id' },
          { name: 'use_case', label: 'Use case', options: USE_CASES },
          { name: 'created_gte', label: 'Created from', type: 'date' },
          { name: 'created_lte', label: 'Created until', type: 'date' },
          { name: 'order', label: 'Order', options: ['asc'], anyLabel: 'newest first', optionLabel: () => 'oldest first' },
        ]}
      />
      <DataList
        label="payments"
        load={load}
        deps={[JSON.stringify(filters)]}
        rowKey={(payment) => payment.id}
        empty="No payment matches these filters."
        columns={[
          { header: 'Payment', cell: (payment) => <a href={`#/payments/${payment.id}`}>{payment.reference ?? payment.id}</a> },
          { header: 'Amount', numeric: true, cell: (payment) => money(requestedAmount(payment), payment.currency_code) },
          { header: 'Status', cell: (payment) => <Badge value={shownStatus(payment)} /> },
          { header: 'Use case', cell: (payment) => words(payment.use_case) },
          { header: 'Flow', cell: (payment) => flowOf(payment) ?? '—' },
          { header: 'Created', cell: (payment) => <Time at={payment.created_at} /> },
        ]}
      />
    </>
  );
}
