// Service health (GET /admin/health): the gateway's store and every service behind it, each with its state
// and how long its check took. The answer is 200 even when something is down: the page shows what is.
import { useApp } from '../../app-context';
import type { ServiceHealth } from '../../api/types';
import { Badge, PageHeader } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';

export function HealthPage() {
  const { clients } = useApp();
  const [state, reload] = useAsync(() => clients.admin.get('/admin/health') as Promise<ServiceHealth>, []);
  return (
    <>
      <PageHeader title="Service health">
        <button type="button" class="button" onClick={reload}>
          Check again
        </button>
      </PageHeader>
      {state.status === 'loading' && <Loading what="the health checks" />}
      {state.status === 'error' && <ErrorState error={state.error} retry={reload} />}
      {state.status === 'ready' && (
        <>
          <p>
            <Badge value={state.value.status} /> checked {dateTime(state.value.checked_at, true)}
          </p>
          <ul class="health">
            {state.value.components.map((component) => (
              <li key={component.name} class={component.status === 'ok' ? 'health-ok' : 'health-failing'}>
                <strong>{component.name}</strong> <Badge value={component.status} /> in {component.latency_ms} ms
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
