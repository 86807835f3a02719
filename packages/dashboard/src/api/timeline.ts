// A payment's timeline: its processor transactions, the events that name it, and the webhook deliveries of
// those events, in time order. The event log has no filter by payment, so the most recent events are read
// (TIMELINE_EVENT_PAGES pages) and those naming the payment kept.
import type { Vaultline } from '@vaultline/node';
import type { Page } from './clients';
import type { MerchantEvent, Transaction, WebhookDelivery, WebhookEndpoint } from './types';

export type TimelineEntry =
  | { kind: 'transaction'; at: string; transaction: Transaction }
  | { kind: 'event'; at: string; event: MerchantEvent }
  | { kind: 'delivery'; at: string; delivery: WebhookDelivery; endpoint: WebhookEndpoint };

const TIMELINE_EVENT_PAGES = 3;
const PAGE = 100;
/** How far back the timeline looks in the event log. */
export const TIMELINE_EVENT_LIMIT = TIMELINE_EVENT_PAGES * PAGE;

function namesPayment(event: MerchantEvent, paymentId: string): boolean {
  const data = event.data as Record<string, unknown>;
  return data.id === paymentId || data.payment_id === paymentId;
}

export async function paymentTimeline(merchant: Vaultline, paymentId: string): Promise<TimelineEntry[]> {
  const [transactions, events, endpoints] = await Promise.all([
    merchant.get('/payments/{payment_id}/transactions', { params: { path: { payment_id: paymentId } } }) as Promise<{ data: Transaction[] }>,
    recentEventsOf(merchant, paymentId),
    merchant.get('/webhook-endpoints', { params: { query: { limit: PAGE } } }) as Promise<Page<WebhookEndpoint>>,
  ]);
  const eventIds = new Set(events.map((event) => event.id));
  const deliveries = await Promise.all(
    endpoints.data.map(async (endpoint) => {
      const page = (await merchant.get('/webhook-endpoints/{endpoint_id}/deliveries', {
        params: { path: { endpoint_id: endpoint.id }, query: { limit: PAGE } },
      })) as Page<WebhookDelivery>;
      return page.data
        .filter((delivery) => eventIds.has(delivery.event_id))
        .map((delivery) => ({ kind: 'delivery' as const, at: delivery.created_at, delivery, endpoint }));
    }),
  );
  const entries: TimelineEntry[] = [
    ...transactions.data.map((transaction) => ({ kind: 'transaction' as const, at: transaction.created_at, transaction })),
    ...events.map((event) => ({ kind: 'event' as const, at: event.created_at, event })),
    ...deliveries.flat(),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

async function recentEventsOf(merchant: Vaultline, paymentId: string): Promise<MerchantEvent[]> {
  const found: MerchantEvent[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < TIMELINE_EVENT_PAGES; page += 1) {
    const events = (await merchant.get('/events', {
      params: { query: { limit: PAGE, ...(cursor ? { starting_after: cursor } : {}) } },
    })) as Page<MerchantEvent>;
    found.push(...events.data.filter((event) => namesPayment(event, paymentId)));
    if (!events.has_more || !events.next_cursor) break;
    cursor = events.next_cursor;
  }
  return found;
}
