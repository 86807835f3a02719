import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Customer } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { PageHeader, Time } from '../../components/page';

export function CustomersPage() {
  const { clients } = useApp();
  return (
    <>
      <PageHeader title="Customers" />
      <DataList
        label="customers"
        deps={[]}
        load={(cursor) => clients.merchant.get('/customers', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Customer>>}
        rowKey={(customer) => customer.id}
        empty="No customers yet."
        columns={[
          { header: 'Name', cell: (customer) => <a href={`#/customers/${customer.id}`}>{customer.name}</a> },
          { header: 'Email', cell: (customer) => customer.email ?? '—' },
          { header: 'Id', cell: (customer) => <code>{customer.id}</code> },
          { header: 'Created', cell: (customer) => <Time at={customer.created_at} /> },
        ]}
      />
    </>
  );
}
