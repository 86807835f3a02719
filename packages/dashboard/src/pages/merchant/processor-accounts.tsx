// Processor accounts: credentials are write-only. They are typed into password fields, sent once, and the
// API answers only a hint (the last characters) and when they were set.
import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { ProcessorAccount } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page';
import { Empty, ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';

type Processor = ProcessorAccount['processor'];

/** The credential fields each processor's plugin validates (their names are the API's). */
const CREDENTIAL_FIELDS: Record<string, string[]> = {
  adyen: ['api_key', 'merchant_account', 'hmac_key'],
  checkout: ['secret_key', 'processing_channel_id', 'webhook_secret'],
  stripe: ['secret_key', 'webhook_secret'],
  simulator: [],
};

/** The fields to ask for: none for a processor this page does not know (the API validates them anyway). */
const credentialFieldsOf = (processor: Processor): string[] => CREDENTIAL_FIELDS[processor] ?? [];

export function ProcessorAccountsPage() {
  const { clients } = useApp();
  const mayConfigure = useMayConfigure();
  const [state, reload] = useAsync(() => clients.merchant.get('/processor-accounts') as Promise<{ data: ProcessorAccount[] }>, []);
  return (
    <>
      <PageHeader title="Processor accounts">{mayConfigure && <NewAccount created={reload} />}</PageHeader>
      {state.status === 'loading' && <Loading what="processor accounts" />}
      {state.status === 'error' && <ErrorState error={state.error} retry={reload} />}
      {state.status === 'ready' && state.value.data.length === 0 && <Empty>No processor accounts: payments run on the simulator's built-in flows.</Empty>}
      {state.status === 'ready' && state.value.data.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Processor accounts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Processor</th>
                <th scope="col">Credentials</th>
                <th scope="col">Base URL</th>
                <th scope="col">Id</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {state.value.data.map((account) => (
                <tr key={account.id}>
                  <td>{account.name}</td>
                  <td>{account.processor}</td>
                  <td>
                    {account.credentials.hint ? <span class="mono">…{account.credentials.hint}</span> : 'set'}, {dateTime(account.credentials.updated_at)}
                  </td>
                  <td>{account.settings.base_url ?? 'default'}</td>
                  <td>
                    <code>{account.id}</code>
                  </td>
                  <td>
                    {mayConfigure ? <ReplaceCredentials account={account} replaced={reload} /> : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function CredentialFields({ processor, values, set }: { processor: Processor; values: Record<string, string>; set: (name: string, value: string) => void }) {
  return (
    <>
      {credentialFieldsOf(processor).map((name) => (
        <div class="field" key={name}>
          <label for={`credential-${name}`}>{name.replace(/_/g, ' ')}</label>
          <input id={`credential-${name}`} type="password" autocomplete="off" required value={values[name] ?? ''} onInput={(event) => set(name, (event.target as HTMLInputElement).value)} />
        </div>
      ))}
    </>
  );
}

function NewAccount({ created }: { created: () => void }) {
  const { clients } = useApp();
  const [processor, setProcessor] = useState<Processor>('adyen');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  return (
    <ConfirmDialog
      trigger="Add an account"
      title="Add a processor account"
      confirm="Add the account"
      onConfirm={async () => {
        await clients.merchant.post('/processor-accounts', {
          body: { processor, name, credentials, ...(baseUrl ? { settings: { base_url: baseUrl } } : {}) } as never,
        });
        setCredentials({});
        created();
      }}
    >
      <div class="field">
        <label for="account-processor">Processor</label>
        <select id="account-processor" value={processor} onChange={(event) => setProcessor((event.target as HTMLSelectElement).value as Processor)}>
          {Object.keys(CREDENTIAL_FIELDS).map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="account-name">Name</label>
        <input id="account-name" required value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} />
      </div>
      <div class="field">
        <label for="account-base-url">Base URL (optional)</label>
        <input id="account-base-url" type="url" value={baseUrl} onInput={(event) => setBaseUrl((event.target as HTMLInputElement).value)} />
      </div>
      <CredentialFields processor={processor} values={credentials} set={(field, value) => setCredentials({ ...credentials, [field]: value })} />
    </ConfirmDialog>
  );
}

function ReplaceCredentials({ account, replaced }: { account: ProcessorAccount; replaced: () => void }) {
  const { clients } = useApp();
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  if (credentialFieldsOf(account.processor).length === 0) return <span>—</span>;
  return (
    <ConfirmDialog
      trigger="Replace credentials"
      triggerName={`Replace credentials of ${account.name}`}
      small
      title={`Replace the credentials of ${account.name}`}
      confirm="Replace the credentials"
      onConfirm={async () => {
        await clients.merchant.patch('/processor-accounts/{processor_account_id}', { params: { path: { processor_account_id: account.id } }, body: { credentials } as never });
        setCredentials({});
        replaced();
      }}
    >
      <p>The current credentials cannot be read back; type the new ones.</p>
      <CredentialFields processor={account.processor} values={credentials} set={(field, value) => setCredentials({ ...credentials, [field]: value })} />
    </ConfirmDialog>
  );
}
