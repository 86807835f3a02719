// The merchant's keys of the session's mode (GET /api-keys). A secret key issues and revokes read-mostly
// dashboard keys for support staff; secret keys themselves are issued by an operator. A new key is shown once.
import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Page } from '../../api/clients';
import type { ApiKey } from '../../api/types';
import { apiKeyColumns } from '../../components/api-key-columns';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { PageHeader } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';

export function ApiKeysPage() {
  const { clients, session } = useApp();
  const mayConfigure = useMayConfigure();
  const [round, setRound] = useState(0);
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="API keys">
        {mayConfigure && (
          <ConfirmDialog
            trigger="Issue a dashboard key"
            title="Issue a dashboard key"
            confirm="Issue the key"
            onConfirm={async () => {
              const key = await clients.merchant.post('/api-keys', { body: label ? { label } : {} });
              setIssued(key.api_key);
              setLabel('');
              setRound(round + 1);
            }}
          >
            <p>A dashboard key reads everything and may only capture, cancel, refund and replay webhooks: for support staff. It is a {session.mode} key.</p>
            <div class="field">
              <label for="key-label">Who holds it</label>
              <input id="key-label" maxLength={200} value={label} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} />
            </div>
          </ConfirmDialog>
        )}
      </PageHeader>
      {issued && <SecretOnce label="New dashboard key" secret={issued} onDone={() => setIssued(null)} />}
      <DataList
        label="API keys"
        deps={[round]}
        load={(cursor) => clients.merchant.get('/api-keys', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<ApiKey>>}
        rowKey={(key) => key.id}
        empty={`No ${session.mode} keys.`}
        columns={apiKeyColumns({
          ownKeyId: session.keyId,
          revocable: (key) => mayConfigure && key.scopes.includes('dashboard'),
          revoke: async (key) => {
            await clients.merchant.delete('/api-keys/{key_id}', { params: { path: { key_id: key.id } } });
            setRound(round + 1);
          },
        })}
      />
    </>
  );
}
