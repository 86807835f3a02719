import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Page } from '../../api/clients';
import type { WebhookEndpoint, WebhookEventType } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Badge, PageHeader, Time } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { EventTypePicker } from '../../components/event-type-picker';

export function WebhookEndpointsPage() {
  const { clients } = useApp();
  const mayConfigure = useMayConfigure();
  const [round, setRound] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  return (
    <>
      <PageHeader title="Webhook endpoints">
        {mayConfigure && (
          <ConfirmDialog
            trigger="Add an endpoint"
            title="Add a webhook endpoint"
            confirm="Add the endpoint"
            onConfirm={async () => {
              const created = await clients.merchant.post('/webhook-endpoints', {
                body: { url, ...(events.length > 0 ? { events: events as WebhookEventType[] } : {}) },
              });
              setSecret(created.secret);
              setEvents([]);
              setRound(round + 1);
            }}
          >
            <div class="field">
              <label for="endpoint-url">URL (https; in test mode http://localhost too when the service runs on your machine)</label>
              <input id="endpoint-url" type="url" required value={url} onInput={(event) => setUrl((event.target as HTMLInputElement).value)} />
            </div>
            <EventTypePicker idPrefix="new-endpoint" value={events} onChange={setEvents} />
            <p class="hint">The signing secret is shown once.</p>
          </ConfirmDialog>
        )}
      </PageHeader>
      {secret && <SecretOnce label="Signing secret of the new endpoint" secret={secret} onDone={() => setSecret(null)} />}
      <DataList
        label="webhook endpoints"
        deps={[round]}
        load={(cursor) =>
          clients.merchant.get('/webhook-endpoints', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<WebhookEndpoint>>
        }
        rowKey={(endpoint) => endpoint.id}
        empty="No webhook endpoints: add one to hear of payments, refunds and disputes."
        columns={[
          { header: 'URL', cell: (endpoint) => <a href={`#/webhook-endpoints/${endpoint.id}`}>{endpoint.url}</a> },
          {
            header: 'State',
            cell: (endpoint) => <Badge value={endpoint.enabled ? 'enabled' : `disabled${endpoint.disabled_reason ? ` ${endpoint.disabled_reason}` : ''}`} />,
          },
          { header: 'Events', cell: (endpoint) => (endpoint.events.length === 0 ? 'all' : endpoint.events.join(', ')) },
          { header: 'Created', cell: (endpoint) => <Time at={endpoint.created_at} /> },
        ]}
      />
    </>
  );
}
