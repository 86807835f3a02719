// Key rotation status: the vault's active key-encryption key version and ring (GET /admin/vault/key-status),
// and its rotations, newest first, each re-wrapping every token's data key under a new version.
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { KeyRotation, KeyStatus } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Badge, Facts, PageHeader, Time } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';

function RotationProgress({ rotation }: { rotation: KeyRotation }) {
  return (
    <span class="progress">
      <progress
        max={rotation.total || 1}
        value={rotation.rewrapped}
        aria-label={`Rotation to version ${rotation.to_version}: ${rotation.rewrapped} of ${rotation.total} re-wrapped`}
      />
      <span>
        {rotation.rewrapped} / {rotation.total}
      </span>
    </span>
  );
}

export function KeyRotationPage() {
  const { clients } = useApp();
  const [status, reload] = useAsync(() => clients.admin.get('/admin/vault/key-status') as Promise<KeyStatus>, []);
  return (
    <>
      <PageHeader title="Key rotation">
        <button type="button" class="button" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      {status.status === 'loading' && <Loading what="the key status" />}
      {status.status === 'error' && <ErrorState error={status.error} retry={reload} />}
      {status.status === 'ready' && (
        <Facts
          facts={[
            ['Active key version', status.value.active_version],
            ['Versions in the ring', status.value.versions.join(', ')],
          ]}
        />
      )}
      <h2>Rotations</h2>
      <DataList
        label="key rotations"
        deps={[status.status === 'ready' ? status.value.active_version : null]}
        load={(cursor) =>
          clients.admin.get('/admin/vault/key-rotations', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<KeyRotation>>
        }
        rowKey={(rotation) => rotation.id}
        empty="No rotation yet: POST /admin/vault/key-rotations with to_version starts one."
        columns={[
          { header: 'To version', numeric: true, cell: (rotation) => rotation.to_version },
          { header: 'State', cell: (rotation) => <Badge value={rotation.state} /> },
          { header: 'Progress', cell: (rotation) => <RotationProgress rotation={rotation} /> },
          { header: 'Started', cell: (rotation) => <Time at={rotation.started_at} /> },
          { header: 'Completed', cell: (rotation) => <Time at={rotation.completed_at} /> },
        ]}
      />
    </>
  );
}
