// The merchant's keys of the session's mode (GET /api-keys), managed as in Stripe's dashboard: a secret key
// creates secret keys and read-mostly dashboard keys (for support staff), rolls a key (a new one at once, the
// old one kept working for a while so the new one can be deployed) and deletes one. A new key is shown once.
import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Page } from '../../api/clients';
import type { ApiKey } from '../../api/types';
import { apiKeyColumns } from '../../components/api-key-columns';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { PageHeader } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';

/** How long a rolled key keeps working: Stripe's choices, up to a week. */
const ROLL_EXPIRIES: Array<[string, number]> = [
  ['now', 0],
  ['in 1 hour', 3_600],
  ['in 24 hours', 86_400],
  ['in 3 days', 3 * 86_400],
  ['in 7 days', 7 * 86_400],
];

type Kind = 'merchant' | 'dashboard';

export function ApiKeysPage() {
  const { clients, session } = useApp();
  const mayConfigure = useMayConfigure();
  const [round, setRound] = useState(0);
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<{ label: string; key: string } | null>(null);
  const changed = () => setRound((value) => value + 1);

  const createDialog = (kind: Kind) => (
    <ConfirmDialog
      trigger={kind === 'merchant' ? 'Create a secret key' : 'Create a dashboard key'}
      title={kind === 'merchant' ? 'Create a secret key' : 'Create a dashboard key'}
      confirm="Create the key"
      onConfirm={async () => {
        const key = await clients.merchant.post('/api-keys', { body: { scope: kind, ...(label ? { label } : {}) } });
        setIssued({ label: kind === 'merchant' ? 'New secret key' : 'New dashboard key', key: key.api_key });
        setLabel('');
        changed();
      }}
    >
      <p>
        {kind === 'merchant'
          ? 'A secret key reaches the whole merchant API: keep it on your servers only.'
          : 'A dashboard key reads everything and may only capture, cancel, refund and replay webhooks: for support staff.'}{' '}
        It is a {session.mode} key.
      </p>
      <div class="field">
        <label for={`key-label-${kind}`}>Who holds it</label>
        <input id={`key-label-${kind}`} maxLength={200} value={label} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} />
      </div>
    </ConfirmDialog>
  );

  return (
    <>
      <PageHeader title="API keys">
        {mayConfigure && createDialog('merchant')}
        {mayConfigure && createDialog('dashboard')}
      </PageHeader>
      {issued && <SecretOnce label={issued.label} secret={issued.key} onDone={() => setIssued(null)} />}
      <DataList
        label="API keys"
        deps={[round]}
        load={(cursor) => clients.merchant.get('/api-keys', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<ApiKey>>}
        rowKey={(key) => key.id}
        empty={`No ${session.mode} keys.`}
        columns={apiKeyColumns({
          ownKeyId: session.keyId,
          revokeWord: 'Delete',
          revocable: (key) => mayConfigure && (key.scopes.includes('dashboard') || key.scopes.includes('merchant')),
          revoke: async (key) => {
            await clients.merchant.delete('/api-keys/{key_id}', { params: { path: { key_id: key.id } } });
            changed();
          },
          moreActions: (key) =>
            mayConfigure && !(key.expires_at && Date.parse(key.expires_at) <= Date.now()) ? (
              <RollKey
                apiKey={key}
                rolled={(secret) => {
                  setIssued({ label: `New key replacing ${key.prefix}…`, key: secret });
                  changed();
                }}
              />
            ) : null,
        })}
      />
    </>
  );
}

function RollKey({ apiKey, rolled }: { apiKey: ApiKey; rolled: (secret: string) => void }) {
  const { clients } = useApp();
  const [expiresIn, setExpiresIn] = useState(86_400);
  const id = `roll-expiry-${apiKey.id}`;
  return (
    <ConfirmDialog
      trigger="Roll"
      triggerName={`Roll ${apiKey.prefix}`}
      small
      title={`Roll the key ${apiKey.prefix}…?`}
      confirm="Roll the key"
      onConfirm={async () => {
        const next = await clients.merchant.post('/api-keys/{key_id}/roll', {
          params: { path: { key_id: apiKey.id } },
          body: { expires_in_seconds: expiresIn },
        });
        rolled(next.api_key);
      }}
    >
      <p>A new key replaces this one; it is shown once. Keep the old one working long enough to deploy the new one.</p>
      <div class="field">
        <label for={id}>The old key stops working</label>
        <select id={id} value={String(expiresIn)} onChange={(event) => setExpiresIn(Number((event.target as HTMLSelectElement).value))}>
          {ROLL_EXPIRIES.map(([words, seconds]) => (
            <option key={seconds} value={String(seconds)}>
              {words}
            </option>
          ))}
        </select>
      </div>
    </ConfirmDialog>
  );
}
