// The overview's figures, computed from the public list routes: the payments of the last OVERVIEW_DAYS days
// (at most MAX_PAYMENTS), the processor transactions of the most recent TRANSACTION_SAMPLE of them, and the
// latest deliveries of each webhook endpoint. Pure counting below; reading above.
import type { Vaultline } from '@vaultline/node';
import type { Page } from './clients';
import { flowOf, requestedAmount } from './payments';
import type { Payment, Transaction, WebhookDelivery, WebhookEndpoint } from './types';

export const OVERVIEW_DAYS = 14;
const MAX_PAYMENTS = 500;
const TRANSACTION_SAMPLE = 50;
const PAGE = 100;

export interface Rate {
  label: string;
  succeeded: number;
  total: number;
}

export interface Overview {
  days: string[];
  volumeByDay: Record<string, number[]>;
  countByDay: number[];
  byProcessor: Rate[];
  byFlow: Rate[];
  declineReasons: Array<{ reason: string; count: number }>;
  webhooks: Rate[];
  paymentsRead: number;
}

const SUCCEEDED = new Set(['authorized', 'capturing', 'captured']);
const FAILED = new Set(['failed']);

export async function loadOverview(merchant: Vaultline, now = new Date()): Promise<Overview> {
  const since = new Date(now.getTime() - (OVERVIEW_DAYS - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  const payments = await recentPayments(merchant, since.toISOString());
  const [transactions, deliveries] = await Promise.all([sampleTransactions(merchant, payments.slice(0, TRANSACTION_SAMPLE)), latestDeliveries(merchant)]);
  return summarize(payments, transactions, deliveries, since, now);
}

async function recentPayments(merchant: Vaultline, createdGte: string): Promise<Payment[]> {
  const payments: Payment[] = [];
  let cursor: string | undefined;
  do {
    const page = (await merchant.get('/payments', { params: { query: { limit: PAGE, created_gte: createdGte, ...(cursor ? { starting_after: cursor } : {}) } } })) as Page<Payment>;
    payments.push(...page.data);
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor && payments.length < MAX_PAYMENTS);
  return payments;
}

async function sampleTransactions(merchant: Vaultline, payments: Payment[]): Promise<Transaction[]> {
  const pages = await Promise.all(
    payments.map((payment) => merchant.get('/payments/{payment_id}/transactions', { params: { path: { payment_id: payment.id } } }) as Promise<{ data: Transaction[] }>),
  );
  return pages.flatMap((page) => page.data);
}

async function latestDeliveries(merchant: Vaultline): Promise<Array<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }>> {
  const endpoints = (await merchant.get('/webhook-endpoints', { params: { query: { limit: PAGE } } })) as Page<WebhookEndpoint>;
  return Promise.all(
    endpoints.data.map(async (endpoint) => ({
      endpoint,
      deliveries: ((await merchant.get('/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpoint.id }, query: { limit: PAGE } } })) as Page<WebhookDelivery>)
        .data,
    })),
  );
}

function rateOf(groups: Map<string, { succeeded: number; total: number }>): Rate[] {
  return [...groups.entries()].map(([label, counts]) => ({ label, ...counts })).sort((a, b) => b.total - a.total);
}

function tally(groups: Map<string, { succeeded: number; total: number }>, label: string, succeeded: boolean): void {
  const counts = groups.get(label) ?? { succeeded: 0, total: 0 };
  counts.total += 1;
  if (succeeded) counts.succeeded += 1;
  groups.set(label, counts);
}

export function summarize(
  payments: Payment[],
  transactions: Transaction[],
  endpoints: Array<{ endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }>,
  since: Date,
  now: Date,
): Overview {
  const days: string[] = [];
  for (let day = new Date(since); day <= now; day = new Date(day.getTime() + 86_400_000)) days.push(day.toISOString().slice(0, 10));
  const countByDay = days.map(() => 0);
  const volumeByDay: Record<string, number[]> = {};
  const byFlow = new Map<string, { succeeded: number; total: number }>();
  const reasons = new Map<string, number>();
  for (const payment of payments) {
    const index = days.indexOf(payment.created_at.slice(0, 10));
    if (index >= 0) {
      countByDay[index] = (countByDay[index] ?? 0) + 1;
      const volume = (volumeByDay[payment.currency_code] ??= days.map(() => 0));
      volume[index] = (volume[index] ?? 0) + requestedAmount(payment);
    }
    if (SUCCEEDED.has(payment.status) || FAILED.has(payment.status)) tally(byFlow, flowOf(payment) ?? 'earlier payments', SUCCEEDED.has(payment.status));
    if (FAILED.has(payment.status)) reasons.set(payment.failure_reason ?? 'unknown', (reasons.get(payment.failure_reason ?? 'unknown') ?? 0) + 1);
  }
  const byProcessor = new Map<string, { succeeded: number; total: number }>();
  for (const transaction of transactions) if (transaction.kind === 'authorization') tally(byProcessor, transaction.processor, transaction.status === 'succeeded');
  const webhooks = new Map<string, { succeeded: number; total: number }>();
  for (const { endpoint, deliveries } of endpoints) {
    for (const delivery of deliveries) if (delivery.status !== 'pending') tally(webhooks, endpoint.url, delivery.status === 'succeeded');
  }
  return {
    days,
    volumeByDay,
    countByDay,
    byProcessor: rateOf(byProcessor),
    byFlow: rateOf(byFlow),
    declineReasons: [...reasons.entries()].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    webhooks: rateOf(webhooks),
    paymentsRead: payments.length,
  };
}
