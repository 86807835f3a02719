// The columns of a list of API keys (the merchant's own page and an operator's view of a merchant), with
// a revoke behind a confirmation where the viewer may revoke the key.
import type { ApiKey } from '../api/types';
import { ConfirmDialog } from './confirm-dialog';
import type { Column } from './data-list';
import { Badge, Time } from './page';

export interface ApiKeyColumnsOptions {
  /** The key the viewer's session acts with: marked, never offered for revoking. */
  ownKeyId?: string | null;
  /** Whether this key may be revoked by the viewer. */
  revocable: (key: ApiKey) => boolean;
  revoke: (key: ApiKey) => Promise<void>;
}

export function apiKeyColumns({ ownKeyId, revocable, revoke }: ApiKeyColumnsOptions): Array<Column<ApiKey>> {
  return [
    { header: 'Key', cell: (key) => <span class="mono">{key.prefix}…</span> },
    { header: 'Label', cell: (key) => key.label ?? '—' },
    { header: 'Mode', cell: (key) => <Badge value={key.mode} /> },
    { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
    { header: 'State', cell: (key) => <Badge value={key.revoked_at ? 'revoked' : key.id === ownKeyId ? 'this session' : 'active'} /> },
    { header: 'Created', cell: (key) => <Time at={key.created_at} /> },
    {
      header: 'Actions',
      cell: (key) =>
        !key.revoked_at && key.id !== ownKeyId && revocable(key) ? (
          <ConfirmDialog
            trigger="Revoke"
            triggerName={`Revoke ${key.prefix}`}
            small
            title={`Revoke the key ${key.prefix}…?`}
            confirm="Revoke the key"
            danger
            onConfirm={() => revoke(key)}
          >
            <p>Sessions and requests with this key are refused from now on.</p>
          </ConfirmDialog>
        ) : (
          '—'
        ),
    },
  ];
}
