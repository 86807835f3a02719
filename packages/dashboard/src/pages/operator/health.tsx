// Service health as the gateway reports it: /health (the gateway process answers) and /ready (every service
// behind it answers its own /health).
import { PageHeader } from '../../components/page';
import { Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';

interface Probe {
  path: string;
  meaning: string;
}

const PROBES: Probe[] = [
  { path: '/health', meaning: 'The gateway is up' },
  { path: '/ready', meaning: 'Every service behind the gateway answers' },
];

async function probe(path: string): Promise<{ ok: boolean; detail: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
    const text = await response.text();
    return { ok: response.ok, detail: `${response.status} ${text.slice(0, 200)}`, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, detail: (error as Error).message, ms: Math.round(performance.now() - started) };
  }
}

export function HealthPage() {
  const [state, reload] = useAsync(() => Promise.all(PROBES.map(async (one) => ({ ...one, ...(await probe(one.path)) }))), []);
  return (
    <>
      <PageHeader title="Service health">
        <button type="button" class="button" onClick={reload}>
          Check again
        </button>
      </PageHeader>
      {state.status === 'loading' && <Loading what="the health checks" />}
      {state.status === 'ready' && (
        <ul class="health">
          {state.value.map((result) => (
            <li key={result.path} class={result.ok ? 'health-ok' : 'health-failing'}>
              <strong>{result.ok ? 'Healthy' : 'Failing'}</strong> {result.meaning} (<code>GET {result.path}</code>, {result.ms} ms): <span class="mono">{result.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
