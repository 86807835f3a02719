// The merchant's event log (GET /events), newest first, filtered by type: each event opens its page (payload
// and deliveries).
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import { loadEventTypes } from '../../api/event-types';
import type { MerchantEvent } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { PageHeader, Time } from '../../components/page';
import { useAsync } from '../../components/use-async';
import type { PageProps } from '../../router';

/** The id an event is about, from its payload (a payment, a refund, a dispute, a token…), for the list. */
export function subjectOf(event: MerchantEvent): string | null {
  const data = event.data as Record<string, unknown>;
  for (const name of ['payment_id', 'refund_id', 'dispute_id', 'token_id', 'import_id', 'forward_id', 'endpoint_id', 'id']) {
    if (typeof data[name] === 'string') return `${name.replace(/_id$/, '')} ${data[name] as string}`;
  }
  return null;
}

export function EventsPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['type']);
  const [types] = useAsync(loadEventTypes, []);
  return (
    <>
      <PageHeader title="Events" />
      <p class="hint">Everything that happened to your resources, as your webhooks receive it. Open an event for its payload and where it was delivered.</p>
      <FilterForm
        path="/events"
        query={query}
        fields={[
          {
            name: 'type',
            label: 'Event type',
            options: types.status === 'ready' ? [...types.value, 'webhook_endpoint.test'] : [],
            optionLabel: (type) => type,
          },
        ]}
      />
      <DataList
        label="events"
        deps={[JSON.stringify(filters)]}
        load={(cursor) =>
          clients.merchant.get('/events', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<MerchantEvent>>
        }
        rowKey={(event) => event.id}
        empty="No events of this kind yet."
        columns={[
          { header: 'Event', cell: (event) => <a href={`#/events/${event.id}`}>{event.type}</a> },
          { header: 'About', cell: (event) => <span class="mono">{subjectOf(event) ?? '—'}</span> },
          { header: 'Id', cell: (event) => <span class="mono">{event.id}</span> },
          { header: 'Created', cell: (event) => <Time at={event.created_at} /> },
        ]}
      />
    </>
  );
}
