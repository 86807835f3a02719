import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { TokenImport } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { Badge, PageHeader, Time } from '../../components/page';

function Progress({ job }: { job: TokenImport }) {
  const done = job.counts.imported + job.counts.updated + job.counts.failed;
  const total = Math.max(job.counts.total, done);
  return (
    <span class="progress">
      <progress max={total || 1} value={done} aria-label={`Import ${job.id}: ${done} of ${total} cards`} />
      <span>
        {done} / {total}
        {job.counts.failed ? `, ${job.counts.failed} failed` : ''}
      </span>
    </span>
  );
}

export function ImportsPage() {
  const { clients } = useApp();
  return (
    <>
      <PageHeader title="Import jobs" />
      <DataList
        label="import jobs"
        deps={[]}
        load={(cursor) =>
          clients.merchant.get('/tokens/imports', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<TokenImport>>
        }
        rowKey={(job) => job.id}
        empty="No imports. Cards from another vault are imported through POST /tokens/imports."
        columns={[
          { header: 'Import', cell: (job) => <code>{job.id}</code> },
          { header: 'Provider', cell: (job) => job.provider },
          { header: 'State', cell: (job) => <Badge value={job.state} /> },
          { header: 'Progress', cell: (job) => <Progress job={job} /> },
          {
            header: 'Failure',
            cell: (job) => job.failure_reason ?? (job.failures.length ? job.failures.map((f) => `${f.reason} × ${f.count}`).join(', ') : '—'),
          },
          { header: 'Created', cell: (job) => <Time at={job.created_at} /> },
        ]}
      />
    </>
  );
}
