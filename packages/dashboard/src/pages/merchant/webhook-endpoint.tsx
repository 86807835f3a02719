import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Page } from '../../api/clients';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { Badge, Facts, PageHeader, Time } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { EventTypePicker } from '../../components/event-type-picker';
import { ReplayButton } from '../../components/replay-button';
import { describeError, PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';
import type { PageProps } from '../../router';

export function WebhookEndpointPage({ params, query }: PageProps) {
  const { clients } = useApp();
  const mayConfigure = useMayConfigure();
  const endpointId = params.id ?? '';
  const path = { endpoint_id: endpointId };
  const [state, reload] = useAsync(
    () => clients.merchant.get('/webhook-endpoints/{endpoint_id}', { params: { path } }) as Promise<WebhookEndpoint>,
    [endpointId],
  );
  const [secret, setSecret] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const [events, setEvents] = useState<string[] | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const filters = filterValues(query, ['status']);
  if (state.status !== 'ready') return <PageNotReady title="Webhook endpoint" what="the endpoint" state={state} retry={reload} />;
  const endpoint = state.value;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/webhook-endpoints">Webhook endpoints</a>
      </p>
      <PageHeader title={endpoint.url}>
        {mayConfigure && (
          <button
            type="button"
            class="button button-primary"
            disabled={!endpoint.enabled}
            onClick={() => {
              setTested(null);
              clients.merchant.post('/webhook-endpoints/{endpoint_id}/test-events', { params: { path } }).then(
                () => {
                  setTested('A test event (webhook_endpoint.test) is on its way: its delivery is listed below.');
                  setRound((value) => value + 1);
                },
                (failure: unknown) => setTested(`The test event was not sent: ${describeError(failure)}`),
              );
            }}
          >
            Send a test event
          </button>
        )}
        {mayConfigure && (
          <ConfirmDialog
            trigger="Choose the events"
            title="Which events go to this endpoint?"
            confirm="Save the events"
            onConfirm={async () => {
              await clients.merchant.patch('/webhook-endpoints/{endpoint_id}', {
                params: { path },
                body: { events: (events as WebhookEventType[] | null) ?? endpoint.events },
              });
              setEvents(null);
              reload();
            }}
          >
            <EventTypePicker idPrefix="endpoint-events" value={events ?? endpoint.events} onChange={setEvents} />
          </ConfirmDialog>
        )}
        {mayConfigure && (
          <ConfirmDialog
            trigger="Rotate the secret"
            title="Rotate the signing secret?"
            confirm="Rotate the secret"
            danger
            onConfirm={async () => {
              const rotated = (await clients.merchant.post('/webhook-endpoints/{endpoint_id}/rotate-secret', { params: { path }, body: {} })) as {
                secret: string;
              };
              setSecret(rotated.secret);
            }}
          >
            <p>Deliveries are signed with the new secret from now on; update your receiver.</p>
          </ConfirmDialog>
        )}
      </PageHeader>
      {secret && <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
      {tested && (
        <p class="notice" role="status">
          {tested}
        </p>
      )}
      <Facts
        facts={[
          ['Id', <code>{endpoint.id}</code>],
          ['State', <Badge value={endpoint.enabled ? 'enabled' : 'disabled'} />],
          ['Events', endpoint.events.length === 0 ? 'all' : endpoint.events.join(', ')],
          ['Created', dateTime(endpoint.created_at)],
        ]}
      />
      <h2>Deliveries</h2>
      <FilterForm
        path={`/webhook-endpoints/${endpointId}`}
        query={query}
        fields={[{ name: 'status', label: 'Status', options: ['pending', 'succeeded', 'failed'] }]}
      />
      <DataList
        label="deliveries"
        deps={[endpointId, JSON.stringify(filters), round]}
        load={(cursor) =>
          clients.merchant.get('/webhook-endpoints/{endpoint_id}/deliveries', {
            params: { path, query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } },
          }) as Promise<Page<WebhookDelivery>>
        }
        rowKey={(delivery) => delivery.id}
        empty="No deliveries to this endpoint."
        columns={[
          { header: 'Event', cell: (delivery) => <a href={`#/events/${delivery.event_id}`}>{delivery.event_type}</a> },
          { header: 'Status', cell: (delivery) => <Badge value={delivery.status} /> },
          { header: 'Attempts', numeric: true, cell: (delivery) => delivery.attempt_count },
          { header: 'Last answer', cell: (delivery) => delivery.failure_reason ?? '—' },
          { header: 'Created', cell: (delivery) => <Time at={delivery.created_at} /> },
          { header: 'Actions', cell: (delivery) => <ReplayButton delivery={delivery} replayed={() => setRound((value) => value + 1)} /> },
        ]}
      />
    </>
  );
}
