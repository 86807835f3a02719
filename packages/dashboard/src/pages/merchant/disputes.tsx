import { useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import type { Dispute, DisputeEvidenceInput } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataList, PAGE_SIZE } from '../../components/data-list';
import { FilterForm, filterValues } from '../../components/filters';
import { Badge, PageHeader, Time } from '../../components/page';
import { money, words } from '../../format';
import type { PageProps } from '../../router';

const STATUSES = ['needs_response', 'under_review', 'won', 'lost'];

export function DisputesPage({ query }: PageProps) {
  const { clients } = useApp();
  const filters = filterValues(query, ['status', 'payment_id']);
  // Bumped after an answer: the list is read again.
  const [answered, setAnswered] = useState(0);
  return (
    <>
      <PageHeader title="Disputes" />
      <p class="hint">
        Chargebacks and inquiries the processors reported. One that needs a response is answered here: accept it, or send evidence to the processor.
      </p>
      <FilterForm
        path="/disputes"
        query={query}
        fields={[
          { name: 'status', label: 'Status', options: STATUSES },
          { name: 'payment_id', label: 'Payment id' },
        ]}
      />
      <DataList
        label="disputes"
        deps={[JSON.stringify(filters), answered]}
        load={(cursor) =>
          clients.merchant.get('/disputes', { params: { query: { ...filters, limit: PAGE_SIZE, starting_after: cursor } } }) as Promise<Page<Dispute>>
        }
        rowKey={(dispute) => dispute.id}
        empty="No disputes. Chargebacks appear here when a processor reports one."
        columns={[
          { header: 'Payment', cell: (dispute) => <a href={`#/payments/${dispute.payment_id}`}>{dispute.payment_id}</a> },
          { header: 'Amount', numeric: true, cell: (dispute) => money(dispute.amount, dispute.currency_code) },
          {
            header: 'Status',
            cell: (dispute) => (
              <>
                <Badge value={dispute.status} />
                {dispute.kind === 'inquiry' ? ' (inquiry)' : ''}
              </>
            ),
          },
          { header: 'Reason', cell: (dispute) => words(dispute.reason) },
          { header: 'Evidence due', cell: (dispute) => <Time at={dispute.evidence_due_by} /> },
          {
            header: 'Answer',
            cell: (dispute) => (dispute.status === 'needs_response' ? <DisputeActions dispute={dispute} changed={() => setAnswered((n) => n + 1)} /> : '—'),
          },
        ]}
      />
    </>
  );
}

/** The file as the API takes it: base64 of its bytes. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/tiff'] as const;

/** Accept, or send evidence: each behind a dialog, sent to the processor that reported the dispute. */
function DisputeActions({ dispute, changed }: { dispute: Dispute; changed: () => void }) {
  const { clients } = useApp();
  const path = { dispute_id: dispute.id };
  const [description, setDescription] = useState('');
  const [explanation, setExplanation] = useState('');
  const [receipt, setReceipt] = useState<File | null>(null);
  const [reasonCode, setReasonCode] = useState('');
  const [submit, setSubmit] = useState(true);
  const id = (name: string) => `${name}-${dispute.id}`;
  const sendEvidence = async () => {
    const evidence: NonNullable<DisputeEvidenceInput['evidence']> = {};
    if (description.trim()) evidence.product_description = description.trim();
    if (explanation.trim()) evidence.uncategorized_text = explanation.trim();
    if (receipt) {
      const type = FILE_TYPES.find((candidate) => candidate === receipt.type);
      if (!type) throw new Error('The receipt must be a PDF, JPEG, PNG or TIFF file.');
      evidence.receipt = { filename: receipt.name, content_type: type, data: await base64Of(receipt) };
    }
    await clients.merchant.post('/disputes/{dispute_id}/evidence', {
      params: { path },
      body: { evidence, submit, ...(reasonCode.trim() ? { defense_reason_code: reasonCode.trim() } : {}) },
    });
    changed();
  };
  return (
    <span class="row-actions">
      <ConfirmDialog
        trigger="Evidence"
        triggerName={`Send evidence for the dispute of ${money(dispute.amount, dispute.currency_code)} on ${dispute.payment_id}`}
        small
        title="Send evidence for this dispute?"
        confirm={submit ? 'Submit the evidence' : 'Save the evidence'}
        onConfirm={sendEvidence}
      >
        <p>It goes to the processor that reported the dispute. Submitted evidence cannot be changed; the issuer then decides.</p>
        <div class="field">
          <label for={id('evidence-description')}>What was sold</label>
          <input
            id={id('evidence-description')}
            value={description}
            maxLength={20000}
            onInput={(event) => setDescription((event.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for={id('evidence-explanation')}>Your explanation</label>
          <textarea
            id={id('evidence-explanation')}
            rows={4}
            value={explanation}
            maxLength={20000}
            onInput={(event) => setExplanation((event.target as HTMLTextAreaElement).value)}
          />
        </div>
        <div class="field">
          <label for={id('evidence-receipt')}>Receipt (PDF, JPEG, PNG or TIFF, at most 700 KB)</label>
          <input
            id={id('evidence-receipt')}
            type="file"
            accept={FILE_TYPES.join(',')}
            onChange={(event) => setReceipt((event.target as HTMLInputElement).files?.[0] ?? null)}
          />
        </div>
        <div class="field">
          <label for={id('evidence-reason-code')}>Defense reason code (for processors that ask for one)</label>
          <input
            id={id('evidence-reason-code')}
            value={reasonCode}
            placeholder="SupplyDefenseMaterial"
            onInput={(event) => setReasonCode((event.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field field-check">
          <input id={id('evidence-submit')} type="checkbox" checked={submit} onChange={(event) => setSubmit((event.target as HTMLInputElement).checked)} />
          <label for={id('evidence-submit')}>Submit for review now (else only saved at the processor)</label>
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        trigger="Accept"
        triggerName={`Accept the dispute of ${money(dispute.amount, dispute.currency_code)} on ${dispute.payment_id}`}
        small
        danger
        title="Accept this dispute?"
        confirm={`Accept: lose ${money(dispute.amount, dispute.currency_code)}`}
        onConfirm={async () => {
          await clients.merchant.post('/disputes/{dispute_id}/accept', { params: { path }, body: {} });
          changed();
        }}
      >
        <p>The processor closes the dispute as lost: the cardholder keeps the money. This cannot be undone.</p>
      </ConfirmDialog>
    </span>
  );
}
