// Key rotation status: a rotation (re-wrapping every token's data key under a new key-encryption key
// version) is started by POST /admin/vault/key-rotations and followed by its id; this page follows one.
import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import { Badge, Facts, PageHeader } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';
import { navigate } from '../../router';
import type { PageProps } from '../../routes';

interface KeyRotation {
  id: string;
  to_version: number;
  state: string;
  total: number;
  rewrapped: number;
  remaining: number;
  started_at: string;
  completed_at: string | null;
}

export function KeyRotationPage({ query }: PageProps) {
  const rotationId = query.get('id') ?? '';
  const [typed, setTyped] = useState(rotationId);
  return (
    <>
      <PageHeader title="Key rotation" />
      <form
        class="filters"
        role="search"
        aria-label="Rotation"
        onSubmit={(event) => {
          event.preventDefault();
          navigate('/key-rotation', { id: typed.trim() });
        }}
      >
        <div class="field">
          <label for="rotation-id">Rotation id</label>
          <input id="rotation-id" value={typed} onInput={(event) => setTyped((event.target as HTMLInputElement).value)} />
        </div>
        <div class="filter-actions">
          <button type="submit" class="button button-primary">
            Show the rotation
          </button>
        </div>
      </form>
      {rotationId ? <RotationStatus rotationId={rotationId} /> : <p class="state state-empty">Give the id POST /admin/vault/key-rotations answered to follow that rotation.</p>}
    </>
  );
}

function RotationStatus({ rotationId }: { rotationId: string }) {
  const { clients } = useApp();
  const [state, reload] = useAsync(() => clients.admin.request<KeyRotation>('GET', `/admin/vault/key-rotations/${encodeURIComponent(rotationId)}`), [rotationId]);
  if (state.status === 'loading') return <Loading what="the rotation" />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={reload} />;
  const rotation = state.value;
  return (
    <>
      <Facts
        facts={[
          ['State', <Badge value={rotation.state} />],
          ['To key version', rotation.to_version],
          [
            'Progress',
            <span class="progress">
              <progress max={rotation.total || 1} value={rotation.rewrapped} aria-label="Tokens re-wrapped" />
              <span>
                {rotation.rewrapped} / {rotation.total} ({rotation.remaining} remaining)
              </span>
            </span>,
          ],
          ['Started', dateTime(rotation.started_at)],
          ['Completed', dateTime(rotation.completed_at)],
        ]}
      />
      <button type="button" class="button" onClick={reload}>
        Refresh
      </button>
    </>
  );
}
