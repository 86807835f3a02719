import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { ApiKey, Merchant } from '../../api/types';
import { apiKeyColumns } from '../../components/api-key-columns';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Facts, PageHeader } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';
import type { PageProps } from '../../router';

export function MerchantPage({ params }: PageProps) {
  const { clients } = useApp();
  const merchantId = params.id ?? '';
  const path = { merchant_id: merchantId };
  const [state, reload] = useAsync(() => clients.admin.get('/admin/merchants/{merchant_id}', { params: { path } }) as Promise<Merchant>, [merchantId]);
  const [round, setRound] = useState(0);
  const [issued, setIssued] = useState<string | null>(null);
  if (state.status !== 'ready') return <PageNotReady title="Merchant" what="the merchant" state={state} retry={reload} />;
  const merchant = state.value;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/">Merchants</a>
      </p>
      <PageHeader title={merchant.name}>
        <RateLimitEditor merchant={merchant} changed={reload} />
        <IssueKey merchantId={merchantId} issued={(key) => (setIssued(key), setRound(round + 1))} />
      </PageHeader>
      {issued && <SecretOnce label="New API key" secret={issued} onDone={() => setIssued(null)} />}
      <Facts
        facts={[
          ['Id', <code>{merchant.id}</code>],
          ['Card data access', merchant.card_data_access ? 'yes' : 'no'],
          ['Rate limit', merchant.rate_limit ? `${merchant.rate_limit.per_second} per second, burst ${merchant.rate_limit.burst}` : 'the default'],
          ['Created', dateTime(merchant.created_at)],
        ]}
      />
      <h2>API keys</h2>
      <DataList
        label="API keys"
        deps={[merchantId, round]}
        load={(cursor) =>
          clients.admin.get('/admin/merchants/{merchant_id}/api-keys', { params: { path, query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<
            Page<ApiKey>
          >
        }
        rowKey={(key) => key.id}
        empty="This merchant has no keys."
        columns={apiKeyColumns({
          revocable: () => true,
          revoke: async (key) => {
            await clients.admin.delete('/admin/merchants/{merchant_id}/api-keys/{key_id}', { params: { path: { merchant_id: merchantId, key_id: key.id } } });
            setRound(round + 1);
          },
        })}
      />
    </>
  );
}

function RateLimitEditor({ merchant, changed }: { merchant: Merchant; changed: () => void }) {
  const { clients } = useApp();
  const [perSecond, setPerSecond] = useState(String(merchant.rate_limit?.per_second ?? ''));
  const [burst, setBurst] = useState(String(merchant.rate_limit?.burst ?? ''));
  return (
    <ConfirmDialog
      trigger="Set the rate limit"
      title={`Rate limit of ${merchant.name}`}
      confirm="Save the rate limit"
      onConfirm={async () => {
        const rateLimit = perSecond && burst ? { per_second: Number(perSecond), burst: Number(burst) } : null;
        await clients.admin.patch('/admin/merchants/{merchant_id}', { params: { path: { merchant_id: merchant.id } }, body: { rate_limit: rateLimit } });
        changed();
      }}
    >
      <p>Both empty: the deployment's default.</p>
      <div class="field">
        <label for="rate-per-second">Requests per second</label>
        <input
          id="rate-per-second"
          type="number"
          min="0.001"
          step="any"
          value={perSecond}
          onInput={(event) => setPerSecond((event.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="rate-burst">Burst</label>
        <input id="rate-burst" type="number" min="1" step="1" value={burst} onInput={(event) => setBurst((event.target as HTMLInputElement).value)} />
      </div>
    </ConfirmDialog>
  );
}

function IssueKey({ merchantId, issued }: { merchantId: string; issued: (key: string) => void }) {
  const { clients } = useApp();
  const [mode, setMode] = useState<'test' | 'live'>('test');
  const [scope, setScope] = useState<'merchant' | 'dashboard'>('merchant');
  const [label, setLabel] = useState('');
  return (
    <ConfirmDialog
      trigger="Issue a key"
      title="Issue an API key"
      confirm="Issue the key"
      onConfirm={async () => {
        const key = await clients.admin.post('/admin/merchants/{merchant_id}/api-keys', {
          params: { path: { merchant_id: merchantId } },
          body: { mode, scope, ...(label ? { label } : {}) },
        });
        issued(key.api_key);
      }}
    >
      <div class="field">
        <label for="key-mode">Mode</label>
        <select id="key-mode" value={mode} onChange={(event) => setMode((event.target as HTMLSelectElement).value as 'test' | 'live')}>
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
      </div>
      <div class="field">
        <label for="key-scope">Scope</label>
        <select id="key-scope" value={scope} onChange={(event) => setScope((event.target as HTMLSelectElement).value as 'merchant' | 'dashboard')}>
          <option value="merchant">merchant (a secret key: the whole merchant API)</option>
          <option value="dashboard">dashboard (read-mostly, for support staff)</option>
        </select>
      </div>
      <div class="field">
        <label for="key-label">Label</label>
        <input id="key-label" value={label} maxLength={200} onInput={(event) => setLabel((event.target as HTMLInputElement).value)} />
      </div>
    </ConfirmDialog>
  );
}
