import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { ForwardDestination } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm } from '../../components/filters';
import { PageHeader, Time } from '../../components/page';
import { Empty } from '../../components/states';
import type { PageProps } from '../../router';

/** A merchant's own forward destinations (the API lists them per merchant). */
export function ForwardDestinationsPage({ query }: PageProps) {
  const { clients } = useApp();
  const shown = query.get('merchant_id') ?? '';
  const [round, setRound] = useState(0);
  const [merchantId, setMerchantId] = useState(shown);
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<'' | 'test' | 'live'>('');
  return (
    <>
      <PageHeader title="Forward destinations">
        <ConfirmDialog
          trigger="Add a destination"
          title="Add a forward destination"
          confirm="Add the destination"
          onConfirm={async () => {
            await clients.admin.post('/admin/forwarder/destinations', { body: { merchant_id: merchantId, url, mode: mode || null } });
            setRound(round + 1);
          }}
        >
          <div class="field">
            <label for="destination-merchant">Merchant id</label>
            <input id="destination-merchant" required value={merchantId} onInput={(event) => setMerchantId((event.target as HTMLInputElement).value)} />
          </div>
          <div class="field">
            <label for="destination-url">URL</label>
            <input id="destination-url" type="url" required value={url} onInput={(event) => setUrl((event.target as HTMLInputElement).value)} />
          </div>
          <div class="field">
            <label for="destination-mode">Keys allowed</label>
            <select id="destination-mode" value={mode} onChange={(event) => setMode((event.target as HTMLSelectElement).value as typeof mode)}>
              <option value="">test and live</option>
              <option value="test">test only</option>
              <option value="live">live only</option>
            </select>
          </div>
        </ConfirmDialog>
      </PageHeader>
      <FilterForm path="/forward-destinations" query={query} fields={[{ name: 'merchant_id', label: 'Merchant id' }]} />
      {!shown && <Empty>Give a merchant id to list that merchant's destinations.</Empty>}
      {shown && (
        <DataList
          label="forward destinations"
          deps={[round, shown]}
          load={(cursor) =>
            clients.admin.get('/admin/forwarder/destinations', {
              params: { query: { merchant_id: shown, limit: PAGE_SIZE, starting_after: cursor } },
            }) as Promise<Page<ForwardDestination>>
          }
          rowKey={(destination) => destination.id}
          empty="No destinations besides the built-in catalog."
          columns={[
            { header: 'URL', cell: (destination) => <span class="mono">{destination.url}</span> },
            { header: 'Merchant', cell: (destination) => <a href={`#/merchants/${destination.merchant_id}`}>{destination.merchant_id}</a> },
            { header: 'Mode', cell: (destination) => destination.mode ?? 'both' },
            { header: 'Created', cell: (destination) => <Time at={destination.created_at} /> },
            {
              header: 'Actions',
              cell: (destination) => (
                <ConfirmDialog
                  trigger="Remove"
                  triggerName={`Remove ${destination.url}`}
                  small
                  title="Remove this destination?"
                  confirm="Remove the destination"
                  danger
                  onConfirm={async () => {
                    await clients.admin.delete('/admin/forwarder/destinations/{destination_id}', {
                      params: { path: { destination_id: destination.id }, query: { merchant_id: destination.merchant_id } },
                    });
                    setRound(round + 1);
                  }}
                >
                  <p>Forwarding to {destination.url} is refused from now on.</p>
                </ConfirmDialog>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
