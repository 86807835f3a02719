import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { AuditEntry } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { PageHeader } from '../../components/page';
import { dateTime } from '../../format';
import type { PageProps } from '../../routes';

export function AuditPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['operator_id']);
  return (
    <>
      <PageHeader title="Audit log" />
      <FilterForm path="/audit" query={query} fields={[{ name: 'operator_id', label: 'Operator id' }]} />
      <DataList
        label="audit entries"
        deps={[JSON.stringify(filters)]}
        load={(cursor) => clients.admin.get('/admin/audit', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<AuditEntry>>}
        rowKey={(entry) => entry.id}
        empty="No audit entries match."
        columns={[
          { header: 'At', cell: (entry) => dateTime(entry.at) },
          { header: 'Who', cell: (entry) => entry.operator_name ?? (entry.operator_id ? <code>{entry.operator_id}</code> : 'refused key') },
          { header: 'Request', cell: (entry) => <span class="mono">{`${entry.method} ${entry.path}`}</span> },
          { header: 'Status', numeric: true, cell: (entry) => entry.status },
          { header: 'Targets', cell: (entry) => entry.target_ids.join(', ') || '—' },
        ]}
      />
    </>
  );
}
