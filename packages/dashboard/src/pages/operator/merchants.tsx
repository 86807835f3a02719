import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Merchant } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { PageHeader, Time } from '../../components/page';
import { SecretOnce } from '../../components/secret-once';

export function MerchantsPage() {
  const { clients } = useApp();
  const [round, setRound] = useState(0);
  const [name, setName] = useState('');
  const [cardDataAccess, setCardDataAccess] = useState(false);
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  return (
    <>
      <PageHeader title="Merchants">
        <ConfirmDialog
          trigger="Create a merchant"
          title="Create a merchant"
          confirm="Create the merchant"
          onConfirm={async () => {
            const merchant = await clients.admin.post('/admin/merchants', { body: { name, card_data_access: cardDataAccess } });
            setCreated({ name: merchant.name, apiKey: merchant.api_key });
            setName('');
            setRound(round + 1);
          }}
        >
          <div class="field">
            <label for="merchant-name">Name</label>
            <input id="merchant-name" required value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} />
          </div>
          <div class="field field-check">
            <input
              id="merchant-card-data"
              type="checkbox"
              checked={cardDataAccess}
              onChange={(event) => setCardDataAccess((event.target as HTMLInputElement).checked)}
            />
            <label for="merchant-card-data">Card data access (may detokenize and forward cards)</label>
          </div>
        </ConfirmDialog>
      </PageHeader>
      {created && <SecretOnce label={`First API key (test) of ${created.name}`} secret={created.apiKey} onDone={() => setCreated(null)} />}
      <DataList
        label="merchants"
        deps={[round]}
        load={(cursor) => clients.admin.get('/admin/merchants', { params: { query: { limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Merchant>>}
        rowKey={(merchant) => merchant.id}
        empty="No merchants yet."
        columns={[
          { header: 'Name', cell: (merchant) => <a href={`#/merchants/${merchant.id}`}>{merchant.name}</a> },
          { header: 'Card data', cell: (merchant) => (merchant.card_data_access ? 'yes' : 'no') },
          {
            header: 'Rate limit',
            cell: (merchant) => (merchant.rate_limit ? `${merchant.rate_limit.per_second}/s, burst ${merchant.rate_limit.burst}` : 'default'),
          },
          { header: 'Id', cell: (merchant) => <code>{merchant.id}</code> },
          { header: 'Created', cell: (merchant) => <Time at={merchant.created_at} /> },
        ]}
      />
    </>
  );
}
