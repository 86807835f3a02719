import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Page } from '../../api/clients';
import type { WebhookDelivery, WebhookEndpoint } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { Badge, Facts, PageHeader, Time } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { describeError, PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';
import type { PageProps } from '../../routes';

export function WebhookEndpointPage({ params, query }: PageProps) {
  const { clients } = useApp();
  const mayConfigure = useMayConfigure();
  const endpointId = params.id ?? '';
  const path = { endpoint_id: endpointId };
  const [state, reload] = useAsync(() => clients.merchant.get('/webhook-endpoints/{endpoint_id}', { params: { path } }) as Promise<WebhookEndpoint>, [endpointId]);
  const [secret, setSecret] = useState<string | null>(null);
  const [round, setRound] = useState(0);
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
        <ConfirmDialog
          trigger="Rotate the secret"
          title="Rotate the signing secret?"
          confirm="Rotate the secret"
          danger
          onConfirm={async () => {
            const rotated = (await clients.merchant.post('/webhook-endpoints/{endpoint_id}/rotate-secret', { params: { path }, body: {} as never })) as { secret: string };
            setSecret(rotated.secret);
          }}
        >
          <p>Deliveries are signed with the new secret from now on; update your receiver.</p>
        </ConfirmDialog>
        )}
      </PageHeader>
      {secret && <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
      <Facts
        facts={[
          ['Id', <code>{endpoint.id}</code>],
          ['State', <Badge value={endpoint.enabled ? 'enabled' : 'disabled'} />],
          ['Events', endpoint.events.length === 0 ? 'all' : endpoint.events.join(', ')],
          ['Created', dateTime(endpoint.created_at)],
        ]}
      />
      <h2>Deliveries</h2>
      <FilterForm path={`/webhook-endpoints/${endpointId}`} query={query} fields={[{ name: 'status', label: 'Status', options: ['pending', 'succeeded', 'failed'] }]} />
      <DataList
        label="deliveries"
        deps={[endpointId, JSON.stringify(filters), round]}
        load={(cursor) =>
          clients.merchant.get('/webhook-endpoints/{endpoint_id}/deliveries', {
            params: { path, query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } as never },
          }) as Promise<Page<WebhookDelivery>>
        }
        rowKey={(delivery) => delivery.id}
        empty="No deliveries to this endpoint."
        columns={[
          { header: 'Event', cell: (delivery) => delivery.event_type },
          { header: 'Status', cell: (delivery) => <Badge value={delivery.status} /> },
          { header: 'Attempts', numeric: true, cell: (delivery) => delivery.attempt_count },
          { header: 'Last answer', cell: (delivery) => delivery.failure_reason ?? '—' },
          { header: 'Created', cell: (delivery) => <Time at={delivery.created_at} /> },
          { header: 'Actions', cell: (delivery) => <Replay endpointId={endpointId} delivery={delivery} replayed={() => setRound((value) => value + 1)} /> },
        ]}
      />
    </>
  );
}

function Replay({ endpointId, delivery, replayed }: { endpointId: string; delivery: WebhookDelivery; replayed: () => void }) {
  const { clients } = useApp();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        class="button button-small"
        aria-label={`Replay delivery of ${delivery.event_type} ${delivery.id}`}
        onClick={() => {
          setError(null);
          clients.merchant
            .post('/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', { params: { path: { endpoint_id: endpointId, delivery_id: delivery.id } } } as never)
            .then(replayed, (failure: unknown) => setError(describeError(failure)));
        }}
      >
        Replay
      </button>
      {error && (
        <span class="form-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
