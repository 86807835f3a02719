import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Operator } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { PageHeader, Time } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';
import { dateTime } from '../../format';

export function OperatorsPage() {
  const { clients } = useApp();
  const [round, setRound] = useState(0);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Operators">
        <ConfirmDialog
          trigger="Add an operator"
          title="Add an operator"
          confirm="Add the operator"
          onConfirm={async () => {
            const operator = await clients.admin.post('/admin/operators', { body: { name } });
            setCreated(operator.admin_key);
            setName('');
            setRound(round + 1);
          }}
        >
          <div class="field">
            <label for="operator-name">Name</label>
            <input id="operator-name" required value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} />
          </div>
        </ConfirmDialog>
      </PageHeader>
      {created && <SecretOnce label="Admin key of the new operator" secret={created} onDone={() => setCreated(null)} />}
      <DataList
        label="operators"
        deps={[round]}
        load={(cursor) => clients.admin.get('/admin/operators', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Operator>>}
        rowKey={(operator) => operator.id}
        empty="No operators besides the bootstrap key."
        columns={[
          { header: 'Name', cell: (operator) => operator.name },
          { header: 'Key', cell: (operator) => <span class="mono">{operator.prefix}…</span> },
          { header: 'State', cell: (operator) => (operator.revoked_at ? `revoked ${dateTime(operator.revoked_at)}` : 'active') },
          { header: 'Created', cell: (operator) => <Time at={operator.created_at} /> },
          {
            header: 'Actions',
            cell: (operator) =>
              operator.revoked_at ? (
                '—'
              ) : (
                <ConfirmDialog
                  trigger="Revoke"
                  triggerName={`Revoke ${operator.name}`}
                  small
                  title={`Revoke ${operator.name}?`}
                  confirm="Revoke the operator"
                  danger
                  onConfirm={async () => {
                    await clients.admin.delete('/admin/operators/{operator_id}', { params: { path: { operator_id: operator.id } } });
                    setRound(round + 1);
                  }}
                >
                  <p>Their admin key is refused from now on.</p>
                </ConfirmDialog>
              ),
          },
        ]}
      />
    </>
  );
}
