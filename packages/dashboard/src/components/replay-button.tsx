// Replay of a webhook delivery (the same webhook-id and body, sent again now), with its refusal said beside it:
// the endpoint page's deliveries and an event's deliveries both offer it.
import { useState } from 'preact/hooks';
import { useApp } from '../app-context';
import type { WebhookDelivery } from '../api/types';
import { describeError } from './states';

export function ReplayButton({ delivery, replayed }: { delivery: WebhookDelivery; replayed: () => void }) {
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
            .post('/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', {
              params: { path: { endpoint_id: delivery.endpoint_id, delivery_id: delivery.id } },
            })
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
