// One event: what it says (its payload, exactly as the webhook body's data) and where it went (its delivery to
// each endpoint, with every attempt), with a replay per delivery.
import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { MerchantEvent, WebhookDelivery, WebhookEndpoint } from '../../api/types';
import { Badge, Facts, PageHeader, Time } from '../../components/page';
import { ReplayButton } from '../../components/replay-button';
import { Empty, ErrorState, Loading, PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';
import type { PageProps } from '../../router';
import { subjectOf } from './events';

/** Where the payload's ids lead in the dashboard (a payment's page, a webhook endpoint's). */
function linkOf(event: MerchantEvent): { href: string; label: string } | null {
  const data = event.data as Record<string, unknown>;
  if (typeof data.payment_id === 'string') return { href: `#/payments/${data.payment_id}`, label: 'Open the payment' };
  if (typeof data.endpoint_id === 'string') return { href: `#/webhook-endpoints/${data.endpoint_id}`, label: 'Open the endpoint' };
  return null;
}

export function EventPage({ params }: PageProps) {
  const { clients } = useApp();
  const eventId = params.id ?? '';
  const [state, reload] = useAsync(
    () => clients.merchant.get('/events/{event_id}', { params: { path: { event_id: eventId } } }) as Promise<MerchantEvent>,
    [eventId],
  );
  if (state.status !== 'ready') return <PageNotReady title="Event" what="the event" state={state} retry={reload} />;
  const event = state.value;
  const link = linkOf(event);
  return (
    <>
      <p class="breadcrumb">
        <a href="#/events">Events</a>
      </p>
      <PageHeader title={event.type}>
        {link && (
          <a class="button" href={link.href}>
            {link.label}
          </a>
        )}
      </PageHeader>
      <Facts
        facts={[
          ['Id', <code>{event.id}</code>],
          ['About', <span class="mono">{subjectOf(event) ?? '—'}</span>],
          ['Mode', <Badge value={event.livemode ? 'live' : 'test'} />],
          ['Created', dateTime(event.created_at, true)],
        ]}
      />
      <h2 id="payload-title">Payload</h2>
      <pre class="payload" tabIndex={0} aria-labelledby="payload-title">
        {JSON.stringify(event.data, null, 2)}
      </pre>
      <h2>Deliveries</h2>
      <Deliveries eventId={event.id} />
    </>
  );
}

function Deliveries({ eventId }: { eventId: string }) {
  const { clients } = useApp();
  const [round, setRound] = useState(0);
  const [state, reload] = useAsync(async () => {
    const [deliveries, endpoints] = await Promise.all([
      clients.merchant.get('/events/{event_id}/deliveries', { params: { path: { event_id: eventId } } }) as Promise<Page<WebhookDelivery>>,
      clients.merchant.get('/webhook-endpoints', { params: { query: { limit: 100 } } }) as Promise<Page<WebhookEndpoint>>,
    ]);
    return { deliveries: deliveries.data, endpoints: new Map(endpoints.data.map((endpoint) => [endpoint.id, endpoint])) };
  }, [eventId, round]);
  if (state.status === 'loading') return <Loading what="the deliveries" />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={reload} />;
  if (state.value.deliveries.length === 0) return <Empty>No endpoint received this event (none was subscribed to its type).</Empty>;
  return (
    <ul class="deliveries">
      {state.value.deliveries.map((delivery) => {
        const endpoint = state.value.endpoints.get(delivery.endpoint_id);
        return (
          <li key={delivery.id} class="card">
            <p class="delivery-head">
              <a href={`#/webhook-endpoints/${delivery.endpoint_id}`}>{endpoint?.url ?? delivery.endpoint_id}</a> <Badge value={delivery.status} />
              <ReplayButton delivery={delivery} replayed={() => setRound((value) => value + 1)} />
            </p>
            <p class="hint">
              Delivery <code>{delivery.id}</code> (the webhook-id header), {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
              {delivery.failure_reason ? `; ${delivery.failure_reason}` : ''}
            </p>
            {delivery.attempts.length > 0 && (
              <div class="table-scroll">
                <table>
                  <caption class="visually-hidden">Attempts of delivery {delivery.id}</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Answer</th>
                      <th scope="col" class="numeric">
                        Took
                      </th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {delivery.attempts.map((attempt) => (
                      <tr key={attempt.attempted_at}>
                        <td>
                          <Time at={attempt.attempted_at} />
                        </td>
                        <td>{attempt.status_code ?? 'no answer'}</td>
                        <td class="numeric">{attempt.duration_ms} ms</td>
                        <td>{attempt.error ?? (attempt.trigger === 'replay' ? 'replayed' : '—')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
