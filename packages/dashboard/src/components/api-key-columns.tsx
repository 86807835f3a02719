// The columns of a list of API keys (the merchant's own page and an operator's view of a merchant), with
// a revoke behind a confirmation where the viewer may revoke the key.
import type { ComponentChildren } from 'preact';
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
  /** The revoke action's words ("Revoke" for operators, "Delete" for a merchant's own keys). */
  revokeWord?: string;
  /** More actions of a row, before the revoke (a merchant's Roll). */
  moreActions?: (key: ApiKey) => ComponentChildren;
}

/** A key's state: revoked, expired, expiring (a rolled key still at work), the session's own, or active. */
function keyState(key: ApiKey, ownKeyId: string | null | undefined, now = new Date()): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  if (key.id === ownKeyId) return 'this session';
  if (key.expires_at) return 'expiring';
  return 'active';
}

export function apiKeyColumns({ ownKeyId, revocable, revoke, revokeWord = 'Revoke', moreActions }: ApiKeyColumnsOptions): Array<Column<ApiKey>> {
  return [
    { header: 'Key', cell: (key) => <span class="mono">{key.prefix}…</span> },
    { header: 'Label', cell: (key) => key.label ?? '—' },
    { header: 'Mode', cell: (key) => <Badge value={key.mode} /> },
    { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
    { header: 'State', cell: (key) => <Badge value={keyState(key, ownKeyId)} /> },
    { header: 'Created', cell: (key) => <Time at={key.created_at} /> },
    { header: 'Expires', cell: (key) => <Time at={key.expires_at} /> },
    {
      header: 'Actions',
      cell: (key) => {
        const more = !key.revoked_at ? moreActions?.(key) : null;
        const revokeOffered = !key.revoked_at && key.id !== ownKeyId && revocable(key);
        if (!more && !revokeOffered) return '—';
        return (
          <span class="row-actions">
            {more}
            {revokeOffered && (
              <ConfirmDialog
                trigger={revokeWord}
                triggerName={`${revokeWord} ${key.prefix}`}
                small
                title={`${revokeWord} the key ${key.prefix}…?`}
                confirm={`${revokeWord} the key`}
                danger
                onConfirm={() => revoke(key)}
              >
                <p>Sessions and requests with this key are refused from now on.</p>
              </ConfirmDialog>
            )}
          </span>
        );
      },
    },
  ];
}
