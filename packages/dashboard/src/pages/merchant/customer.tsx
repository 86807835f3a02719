import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Customer, PaymentMethod } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Facts, PageHeader } from '../../components/page';
import { PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime, expiryOf, hrefOfPayments, words } from '../../format';
import type { PageProps } from '../../router';

/** A payment method's card: its own, or the one its mandate was accepted with. */
const cardOf = (method: PaymentMethod) => method.card ?? method.npr_mandate?.card;

export function CustomerPage({ params }: PageProps) {
  const { clients } = useApp();
  const customerId = params.id ?? '';
  const path = { customer_id: customerId };
  const [state, reload] = useAsync(() => clients.merchant.get('/customers/{customer_id}', { params: { path } }) as Promise<Customer>, [customerId]);
  if (state.status !== 'ready') return <PageNotReady title="Customer" what="the customer" state={state} retry={reload} />;
  const customer = state.value;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/customers">Customers</a>
      </p>
      <PageHeader title={customer.name} />
      <Facts
        facts={[
          ['Id', <code>{customer.id}</code>],
          ['Email', customer.email ?? '—'],
          ['Created', dateTime(customer.created_at)],
          ['Payments', <a href={hrefOfPayments({ customer_id: customer.id })}>Payments of this customer</a>],
        ]}
      />
      <h2>Payment methods</h2>
      <DataList
        label="payment methods"
        deps={[customerId]}
        load={(cursor) =>
          clients.merchant.get('/customers/{customer_id}/payment-methods', {
            params: { path, query: { limit: PAGE_SIZE, starting_after: cursor } },
          }) as Promise<Page<PaymentMethod>>
        }
        rowKey={(method) => method.id}
        empty="This customer has no stored payment method."
        columns={[
          { header: 'Type', cell: (method) => words(method.type) },
          { header: 'Card', cell: (method) => cardOf(method)?.masked_number ?? '—' },
          { header: 'Expiry', cell: (method) => expiryOf(cardOf(method)) },
          { header: 'Mandate', cell: (method) => (method.npr_mandate ? `${words(method.npr_mandate.type)} (${method.npr_mandate.reference})` : '—') },
          { header: 'Id', cell: (method) => <code>{method.id}</code> },
        ]}
      />
    </>
  );
}
