// Processor accounts: credentials are write-only. They are typed into the fields the processor lists
// (GET /processors: each processor's manifest), sent once, and the API answers only a hint (the last
// characters) and when they were set. No processor is named here: the page offers what the API lists.
import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { Processor, ProcessorAccount, ProcessorAccountInput } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page';
import { Empty, ErrorState, Loading } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';

type Settings = NonNullable<ProcessorAccountInput['settings']>;

export function ProcessorAccountsPage() {
  const { clients, session } = useApp();
  const mayConfigure = useMayConfigure();
  const [state, reload] = useAsync(async () => {
    const [accounts, processors] = await Promise.all([clients.merchant.get('/processor-accounts'), clients.merchant.get('/processors')]);
    return { accounts: accounts.data, processors: processors.data };
  }, []);
  // An account serves the mode of the key that made it: offer the processors that serve this session's mode.
  const offered = state.status === 'ready' ? state.value.processors.filter((processor) => processor.capabilities.modes.includes(session.mode)) : [];
  const processorOf = (account: ProcessorAccount): Processor | undefined =>
    state.status === 'ready' ? state.value.processors.find((processor) => processor.id === account.processor) : undefined;
  return (
    <>
      <PageHeader title="Processor accounts">{mayConfigure && offered.length > 0 && <NewAccount processors={offered} created={reload} />}</PageHeader>
      {state.status === 'loading' && <Loading what="processor accounts" />}
      {state.status === 'error' && <ErrorState error={state.error} retry={reload} />}
      {state.status === 'ready' && state.value.accounts.length === 0 && <Empty>No processor accounts: payments run on the simulator's built-in flows.</Empty>}
      {state.status === 'ready' && state.value.accounts.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Table of the processor accounts">
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
              {state.value.accounts.map((account) => {
                const processor = processorOf(account);
                return (
                  <tr key={account.id}>
                    <td>{account.name}</td>
                    <td>{processor?.display_name ?? account.processor}</td>
                    <td>
                      {account.credentials.hint ? <span class="mono">{account.credentials.hint}</span> : 'set'}, {dateTime(account.credentials.updated_at)}
                    </td>
                    <td>{account.settings.base_url ?? 'default'}</td>
                    <td>
                      <code>{account.id}</code>
                    </td>
                    <td>
                      {mayConfigure && processor && processor.credentials.fields.length > 0 ? (
                        <ReplaceCredentials account={account} processor={processor} replaced={reload} />
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                );
              })}
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
      {processor.credentials.fields.map((field) => {
        const input = {
          id: `credential-${field.name}`,
          autocomplete: 'off',
          spellcheck: false,
          required: field.required,
          'aria-describedby': `credential-${field.name}-hint`,
          value: values[field.name] ?? '',
          onInput: (event: Event) => set(field.name, (event.target as HTMLInputElement).value),
        };
        return (
          <div class="field" key={`${processor.id}-${field.name}`}>
            <label for={input.id}>
              {field.label}
              {field.required ? '' : ' (optional)'}
            </label>
            {/* A secret is typed into a masked field; an identifier (an account or channel name) stays readable. */}
            {field.secret ? <input type="password" {...input} /> : <input type="text" {...input} />}
            <p class="hint" id={input['aria-describedby']}>
              {field.description}
            </p>
          </div>
        );
      })}
    </>
  );
}

/** The credentials typed in, without the optional ones left empty. */
const given = (values: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));

function NewAccount({ processors, created }: { processors: Processor[]; created: () => void }) {
  const { clients } = useApp();
  const [processorId, setProcessorId] = useState(processors[0]!.id);
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const [settings, setSettings] = useState<Record<string, boolean>>({});
  const processor = processors.find((candidate) => candidate.id === processorId) ?? processors[0]!;
  const choose = (id: string) => {
    setProcessorId(id);
    setCredentials({});
    setSettings({});
  };
  return (
    <ConfirmDialog
      trigger="Add an account"
      title="Add a processor account"
      confirm="Add the account"
      onConfirm={async () => {
        const chosen: Settings = { base_url: baseUrl || null, ...settings };
        await clients.merchant.post('/processor-accounts', { body: { processor: processor.id, name, credentials: given(credentials), settings: chosen } });
        setCredentials({});
        created();
      }}
    >
      <div class="field">
        <label for="account-processor">Processor</label>
        <select id="account-processor" value={processor.id} onChange={(event) => choose((event.target as HTMLSelectElement).value)}>
          {processors.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.display_name}
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
      {processor.settings.map((setting) => (
        <div class="field field-check" key={`${processor.id}-${setting.name}`}>
          <input
            id={`setting-${setting.name}`}
            type="checkbox"
            checked={settings[setting.name] ?? setting.default}
            aria-describedby={`setting-${setting.name}-hint`}
            onChange={(event) => setSettings({ ...settings, [setting.name]: (event.target as HTMLInputElement).checked })}
          />
          <label for={`setting-${setting.name}`}>{setting.label}</label>
          <p class="hint" id={`setting-${setting.name}-hint`}>
            {setting.description}
          </p>
        </div>
      ))}
    </ConfirmDialog>
  );
}

function ReplaceCredentials({ account, processor, replaced }: { account: ProcessorAccount; processor: Processor; replaced: () => void }) {
  const { clients } = useApp();
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  return (
    <ConfirmDialog
      trigger="Replace credentials"
      triggerName={`Replace credentials of ${account.name}`}
      small
      title={`Replace the credentials of ${account.name}`}
      confirm="Replace the credentials"
      onConfirm={async () => {
        await clients.merchant.patch('/processor-accounts/{processor_account_id}', {
          params: { path: { processor_account_id: account.id } },
          body: { credentials: given(credentials) },
        });
        setCredentials({});
        replaced();
      }}
    >
      <p>The current credentials cannot be read back; type the new ones.</p>
      <CredentialFields processor={processor} values={credentials} set={(field, value) => setCredentials({ ...credentials, [field]: value })} />
    </ConfirmDialog>
  );
}
