import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-context';
import type { Page } from '../../api/clients';
import {
  attemptsOf,
  authenticationOf,
  capturableAmount,
  capturedAmount,
  disputedAmount,
  flowOf,
  isSettling,
  maskedCardOf,
  refundPendingAmount,
  refundedAmount,
  requestedAmount,
  shownStatus,
} from '../../api/payments';
import { TIMELINE_EVENT_LIMIT, paymentTimeline, type TimelineEntry } from '../../api/timeline';
import type { Payment, ProcessorAccount, Refund } from '../../api/types';
import { declineText, namesOf, type NameOf } from '../../api/routing';
import { RoutingAttempts } from '../../components/payment-routing';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Badge, Facts, PageHeader } from '../../components/page';
import { Empty, ErrorState, Loading, PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime, minorDigits, money, toMajor, toMinor, words } from '../../format';
import type { PageProps } from '../../router';

/** How often, and how many times, a payment that is still settling (a capture, a void, a refund) is read again. */
const SETTLING_POLL_MS = 700;
const SETTLING_POLLS = 120;

export function PaymentPage({ params }: PageProps) {
  const { clients } = useApp();
  const paymentId = params.id ?? '';
  const path = { payment_id: paymentId };
  // The payment and its refunds together: a refund's amount is pending until the processor settles it.
  const [state, reload, refresh] = useAsync(async () => {
    const [payment, refunds, accounts] = await Promise.all([
      clients.merchant.get('/payments/{payment_id}', { params: { path } }) as Promise<Payment>,
      clients.merchant.get('/payments/{payment_id}/refunds', { params: { path } }) as Promise<Page<Refund>>,
      // Processors by their account's name in the attempts (the ids are accounts' UUIDs).
      clients.merchant.get('/processor-accounts') as Promise<{ data: ProcessorAccount[] }>,
    ]);
    return { payment, refunds: refunds.data, nameOf: namesOf(accounts.data) };
  }, [paymentId]);
  // A capture, a void or a refund settles a moment later: the page follows it until it has (no reload by hand).
  const [polls, setPolls] = useState(0);
  const settling = state.status === 'ready' && isSettling(state.value.payment, refundPendingAmount(state.value.refunds));
  useEffect(() => {
    if (!settling || polls >= SETTLING_POLLS) return;
    const timer = setTimeout(() => {
      setPolls((count) => count + 1);
      refresh();
    }, SETTLING_POLL_MS);
    return () => clearTimeout(timer);
  }, [settling, polls, state]);
  const changed = () => {
    setPolls(0);
    refresh();
  };
  if (state.status !== 'ready') return <PageNotReady title="Payment" what="the payment" state={state} retry={reload} />;
  const { payment, refunds, nameOf } = state.value;
  // A failed payment's decline, or (while the hosted page can take another card) the last card's.
  const decline = ('decline' in payment ? payment.decline : undefined) ?? ('last_failed_attempt' in payment ? payment.last_failed_attempt?.decline : undefined);
  const routing = 'routing' in payment ? payment.routing : undefined;
  const pending = refundPendingAmount(refunds);
  return (
    <>
      <p class="breadcrumb">
        <a href="#/payments">Payments</a>
      </p>
      <PageHeader title={`Payment ${payment.reference ?? payment.id}`}>
        <PaymentActions payment={payment} refundPending={pending} changed={changed} />
      </PageHeader>
      <p class="visually-hidden" role="status">
        {settling ? 'The payment is settling; this page follows it.' : ''}
      </p>
      <Facts
        facts={[
          ['Id', <code>{payment.id}</code>],
          ['Status', <Badge value={shownStatus(payment)} />],
          ['Amount', money(requestedAmount(payment), payment.currency_code)],
          ['Captured', money(capturedAmount(payment), payment.currency_code)],
          ['Capturable', money(capturableAmount(payment), payment.currency_code)],
          [
            'Disputed',
            disputedAmount(payment) > 0 ? (
              <a href={`#/disputes?payment_id=${payment.id}`}>{money(disputedAmount(payment), payment.currency_code)}</a>
            ) : (
              money(0, payment.currency_code)
            ),
          ],
          [
            'Refunded',
            <>
              {money(refundedAmount(payment), payment.currency_code)}
              {pending > 0 && <span class="hint"> ({money(pending, payment.currency_code)} pending)</span>}
            </>,
          ],
          ['Use case', words(payment.use_case)],
          ['Flow', flowOf(payment) ?? '—'],
          ['Card', maskedCardOf(payment) ?? '—'],
          ['3-D Secure', authenticationOf(payment) ?? '—'],
          ['Cards tried', attemptsOf(payment) ?? '—'],
          ['Failure', payment.failure_reason ?? '—'],
          ['Decline', decline ? declineText(decline) : '—'],
          ['Created', dateTime(payment.created_at)],
        ]}
      />
      {routing && routing.attempts.length > 0 && <RoutingAttempts routing={routing} nameOf={nameOf} />}
      <h2>Timeline</h2>
      <Timeline paymentId={payment.id} nameOf={nameOf} version={`${payment.status}:${refundedAmount(payment)}:${pending}`} />
    </>
  );
}

/** Capture (all or part, the last capture or not), cancel and refund, each behind a confirmation, offered when the payment's status allows it. */
function PaymentActions({ payment, refundPending, changed }: { payment: Payment; refundPending: number; changed: () => void }) {
  const { clients } = useApp();
  const path = { payment_id: payment.id };
  const currency = payment.currency_code;
  // What may still be refunded: captured, less refunds that succeeded or are still pending.
  const refundable = (capturedAmount(payment) ?? 0) - refundedAmount(payment) - refundPending;
  const capturable = capturableAmount(payment) ?? (payment.status === 'authorized' ? requestedAmount(payment) : 0);
  const partlyCaptured = payment.status === 'partially_captured';
  const [refundAmount, setRefundAmount] = useState(toMajor(refundable, currency));
  const [reason, setReason] = useState<'requested_by_customer' | 'duplicate' | 'fraudulent'>('requested_by_customer');
  const [captureAmount, setCaptureAmount] = useState(toMajor(capturable, currency));
  const [finalCapture, setFinalCapture] = useState(true);
  const minor = toMinor(refundAmount, currency);
  const captureMinor = toMinor(captureAmount, currency);
  const step = 10 ** -minorDigits(currency);
  const capturesAll = captureMinor === capturable;
  return (
    <>
      {(payment.status === 'authorized' || partlyCaptured) && capturable > 0 && (
        <ConfirmDialog
          trigger="Capture"
          title={partlyCaptured ? 'Capture the next part?' : 'Capture this payment?'}
          confirm={Number.isFinite(captureMinor) && captureMinor > 0 ? `Capture ${money(captureMinor, currency)}` : 'Capture'}
          onConfirm={async () => {
            await clients.merchant.post('/payments/{payment_id}/capture', {
              params: { path },
              body: { amount: captureMinor, currency_code: currency, final_capture: finalCapture || capturesAll },
            });
            changed();
          }}
        >
          <div class="field">
            <label for="capture-amount">
              Amount ({currency}), at most {money(capturable, currency)}
            </label>
            <input
              id="capture-amount"
              type="number"
              min={step}
              step={step}
              max={toMajor(capturable, currency)}
              required
              value={captureAmount}
              onInput={(event) => setCaptureAmount((event.target as HTMLInputElement).value)}
            />
          </div>
          <div class="field field-check">
            <input
              id="capture-final"
              type="checkbox"
              checked={finalCapture || capturesAll}
              disabled={capturesAll}
              onChange={(event) => setFinalCapture((event.target as HTMLInputElement).checked)}
            />
            <label for="capture-final">Final capture: release what is left of the authorization</label>
          </div>
          <p class="hint">
            {finalCapture || capturesAll
              ? 'The last capture of this payment: the processor releases the rest of the authorization.'
              : `More captures follow (as the order ships): ${money(Math.max(0, capturable - (Number.isFinite(captureMinor) ? captureMinor : 0)), currency)} stays held for them.`}
          </p>
        </ConfirmDialog>
      )}
      {(payment.status === 'authorized' || payment.status === 'processing' || partlyCaptured) && (
        <ConfirmDialog
          trigger="Cancel"
          title={partlyCaptured ? 'Release the rest of this payment?' : 'Cancel this payment?'}
          confirm={partlyCaptured ? `Release ${money(capturable, currency)}` : 'Cancel the payment'}
          danger
          onConfirm={async () => {
            await clients.merchant.post('/payments/{payment_id}/cancel', { params: { path }, body: {} });
            changed();
          }}
        >
          <p>
            {partlyCaptured
              ? 'What is left of the authorization is released; what was captured stays captured and can be refunded.'
              : 'The authorization is released; the payment cannot be captured afterwards.'}
          </p>
        </ConfirmDialog>
      )}
      {(payment.status === 'captured' || partlyCaptured) && refundable > 0 && disputedAmount(payment) === 0 && (
        <ConfirmDialog
          trigger="Refund"
          title="Refund this payment?"
          confirm={Number.isFinite(minor) && minor > 0 ? `Refund ${money(minor, payment.currency_code)}` : 'Refund'}
          danger
          onConfirm={async () => {
            await clients.merchant.post('/payments/{payment_id}/refunds', { params: { path }, body: { amount: minor, reason } });
            changed();
          }}
        >
          <div class="field">
            <label for="refund-amount">
              Amount ({payment.currency_code}), at most {money(refundable, payment.currency_code)}
            </label>
            <input
              id="refund-amount"
              type="number"
              min={step}
              step={step}
              max={toMajor(refundable, payment.currency_code)}
              required
              value={refundAmount}
              onInput={(event) => setRefundAmount((event.target as HTMLInputElement).value)}
            />
          </div>
          <div class="field">
            <label for="refund-reason">Reason</label>
            <select id="refund-reason" value={reason} onChange={(event) => setReason((event.target as HTMLSelectElement).value as typeof reason)}>
              <option value="requested_by_customer">requested by customer</option>
              <option value="duplicate">duplicate</option>
              <option value="fraudulent">fraudulent</option>
            </select>
          </div>
        </ConfirmDialog>
      )}
    </>
  );
}

function Timeline({ paymentId, nameOf, version }: { paymentId: string; nameOf: NameOf; version: string }) {
  const { clients } = useApp();
  const [state, reload] = useAsync(() => paymentTimeline(clients.merchant, paymentId), [paymentId, version]);
  if (state.status === 'loading') return <Loading what="the timeline" />;
  if (state.status === 'error') return <ErrorState error={state.error} retry={reload} />;
  if (state.value.length === 0) return <Empty>Nothing has happened to this payment yet.</Empty>;
  return (
    <>
      <p class="hint">
        Its processor transactions, and its events and their webhook deliveries among the merchant&apos;s {TIMELINE_EVENT_LIMIT} most recent events.
      </p>
      <ol class="timeline">
        {state.value.map((entry) => (
          <li key={keyOf(entry)} class={`timeline-${entry.kind}`}>
            <time dateTime={entry.at}>{dateTime(entry.at, true)}</time>
            <TimelineText entry={entry} nameOf={nameOf} />
          </li>
        ))}
      </ol>
    </>
  );
}

function keyOf(entry: TimelineEntry): string {
  if (entry.kind === 'transaction') return entry.transaction.id ?? `${entry.transaction.kind}-${entry.at}`;
  if (entry.kind === 'event') return entry.event.id;
  return entry.delivery.id;
}

function TimelineText({ entry, nameOf }: { entry: TimelineEntry; nameOf: NameOf }) {
  if (entry.kind === 'transaction') {
    const { transaction } = entry;
    return (
      <span>
        <strong>Transaction</strong> {words(transaction.kind)} at {nameOf(transaction.processor)}
        {transaction.attempt ? ` (card ${transaction.attempt})` : ''}: <Badge value={transaction.status} />
        {transaction.failure_reason ? ` (${transaction.failure_reason})` : ''}
      </span>
    );
  }
  if (entry.kind === 'event') {
    return (
      <span>
        <strong>Event</strong> <a href={`#/events/${entry.event.id}`}>{entry.event.type}</a> <code>{entry.event.id}</code>
      </span>
    );
  }
  const { delivery, endpoint } = entry;
  return (
    <span>
      <strong>Webhook</strong> <a href={`#/events/${delivery.event_id}`}>{delivery.event_type}</a> to{' '}
      <a href={`#/webhook-endpoints/${endpoint.id}`}>{endpoint.url}</a>: <Badge value={delivery.status} /> after {delivery.attempt_count}{' '}
      {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
    </span>
  );
}
