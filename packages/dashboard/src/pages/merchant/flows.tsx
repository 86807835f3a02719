import { useApp } from '../../app-context';
import type { Flow } from '../../api/types';
import { PageHeader } from '../../components/page';
import { Empty, ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { words } from '../../format';

/** The built-in flows and the merchant's own (one list, bounded by the API: no pages). */
export function FlowsPage() {
  const { clients } = useApp();
  const [state, reload] = useAsync(() => clients.merchant.get('/flows') as Promise<{ data: Flow[] }>, []);
  return (
    <>
      <PageHeader title="Flows">
        <a class="button" href="#/flow-matrix">
          Edit the flow matrix
        </a>
      </PageHeader>
      {state.status === 'loading' && <Loading what="flows" />}
      {state.status === 'error' && <ErrorState error={state.error} retry={reload} />}
      {state.status === 'ready' && state.value.data.length === 0 && <Empty>No flows.</Empty>}
      {state.status === 'ready' && state.value.data.length > 0 && (
        <div class="cards">
          {state.value.data.map((flow) => (
            <section class="card" key={flow.name} aria-labelledby={`flow-${flow.name}`}>
              <h2 id={`flow-${flow.name}`}>{flow.name}</h2>
              <p>
                {flow.built_in ? 'Built in' : 'Own flow'} · capture {flow.capture_mode}
              </p>
              <ol class="steps">
                {flow.steps.map((step, index) => (
                  <li key={index}>
                    {words(step.kind)} at <strong>{step.processor}</strong>
                    {step.fallback?.length ? `, then ${step.fallback.join(', ')}` : ''}
                    {step.on_failure === 'continue' ? ' (continues when declined)' : ''}
                  </li>
                ))}
              </ol>
            </section>
          ))}
        </div>
      )}
    </>
  );
}
