import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { AuditEntry } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { PageHeader, Time } from '../../components/page';
import type { PageProps } from '../../router';

const FILTERS = ['operator_id', 'merchant_id', 'via', 'role', 'session_id_prefix', 'key_id'];

/** Who made an entry: an operator, a merchant's session (linked, with its role and mode), or a refused key. */
function Actor({ entry }: { entry: AuditEntry }) {
  if (entry.operator_name) return <>{entry.via === 'dashboard_session' ? `${entry.operator_name} (dashboard)` : entry.operator_name}</>;
  if (entry.merchant_id) {
    return (
      <>
        <a href={`#/merchants/${entry.merchant_id}`} aria-label={`merchant ${entry.merchant_id}`}>
          {entry.merchant_id.slice(0, 13)}…
        </a>{' '}
        ({entry.role ?? 'session'}, {entry.mode ?? '—'})
      </>
    );
  }
  return <>{entry.operator_id ?? 'refused key'}</>;
}

export function AuditPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, FILTERS);
  return (
    <>
      <PageHeader title="Audit log" />
      <FilterForm
        path="/audit"
        query={query}
        fields={[
          { name: 'operator_id', label: 'Operator id' },
          { name: 'merchant_id', label: 'Merchant id' },
          { name: 'via', label: 'Signed with', options: ['admin_key', 'dashboard_session'] },
          { name: 'role', label: 'Role', options: ['merchant', 'dashboard', 'operator'] },
          { name: 'session_id_prefix', label: 'Session' },
          { name: 'key_id', label: 'Key id' },
        ]}
      />
      <DataList
        label="audit entries"
        deps={[JSON.stringify(filters)]}
        load={(cursor) =>
          clients.admin.get('/admin/audit', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<AuditEntry>>
        }
        rowKey={(entry) => entry.id}
        empty="No audit entries match."
        columns={[
          { header: 'At', cell: (entry) => <Time at={entry.at} /> },
          { header: 'Who', cell: (entry) => <Actor entry={entry} /> },
          { header: 'Request', cell: (entry) => <span class="mono">{`${entry.method} ${entry.path}`}</span> },
          { header: 'Status', numeric: true, cell: (entry) => entry.status },
          { header: 'Targets', cell: (entry) => entry.target_ids.join(', ') || '—' },
        ]}
      />
    </>
  );
}
