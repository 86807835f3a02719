// Tokens, masked only: the API answers at most the first six and last four digits, and nothing here asks
// for more (detokenizing is not a dashboard action).
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Token } from '../../api/types';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { PageHeader, Time } from '../../components/page';
import { expiryOf } from '../../format';
import type { PageProps } from '../../router';

export function TokensPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['business_key', 'fingerprint']);
  return (
    <>
      <PageHeader title="Tokens" />
      <FilterForm
        path="/tokens"
        query={query}
        fields={[
          { name: 'business_key', label: 'Business key' },
          { name: 'fingerprint', label: 'Card fingerprint' },
        ]}
      />
      <DataList
        label="tokens"
        deps={[JSON.stringify(filters)]}
        load={(cursor) =>
          clients.merchant.get('/tokens', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Token>>
        }
        rowKey={(token) => token.id}
        empty="No tokens match."
        columns={[
          { header: 'Card', cell: (token) => <span class="mono">{token.masked_account_number}</span> },
          { header: 'Scheme', cell: (token) => token.scheme },
          { header: 'Expiry', cell: expiryOf },
          { header: 'Business key', cell: (token) => token.business_key ?? '—' },
          { header: 'Token', cell: (token) => <code>{token.id}</code> },
          { header: 'Created', cell: (token) => <Time at={token.created_at} /> },
        ]}
      />
    </>
  );
}
