import { successRate, type ReportPeriod, type Scope } from '@vaultline/core';
import { everyItem } from '@vaultline/store';
import type { EndpointRepository, MessageRepository } from './ports';
import type { MessageStatus } from './webhook-message';

interface Counts {
  messages: number;
  succeeded: number;
  failed: number;
  pending: number;
}

const emptyCounts = (): Counts => ({ messages: 0, succeeded: 0, failed: 0, pending: 0 });

function add(counts: Counts, status: MessageStatus): void {
  counts.messages += 1;
  counts[status] += 1;
}

const countsView = (counts: Counts) => ({ ...counts, success_rate: successRate(counts.succeeded, counts.failed) });

export type DeliveryReport = Awaited<ReturnType<ReportDeliveries>>;

export type ReportDeliveries = (
  scope: Scope,
  period: ReportPeriod,
) => Promise<{
  object: 'webhook_delivery_report';
  livemode: boolean;
  from: string;
  to: string;
  totals: Counts & { success_rate: number | null };
  days: Array<Counts & { date: string; success_rate: number | null }>;
  by_endpoint: Array<Counts & { endpoint_id: string; url: string | null; success_rate: number | null }>;
}>;

/**
 * GET /reports/webhook-deliveries: the webhook messages (one event for one endpoint) created in the
 * period, in their state now, per day and per endpoint, in the key's mode. One pass over the period's
 * messages (the period is bounded: MAX_REPORT_DAYS).
 */
export function reportDeliveries({
  messages,
  endpoints,
}: {
  messages: Pick<MessageRepository, 'listInPeriod'>;
  endpoints: Pick<EndpointRepository, 'get'>;
}): ReportDeliveries {
  return async (scope, period) => {
    const totals = emptyCounts();
    const byDay = new Map<string, Counts>();
    const byEndpoint = new Map<string, Counts>();
    for await (const message of everyItem((page) => messages.listInPeriod(scope, { startsAt: period.startsAt, endsBefore: period.endsBefore }, page))) {
      const day = byDay.get(message.created_at.slice(0, 10)) ?? emptyCounts();
      byDay.set(message.created_at.slice(0, 10), day);
      const endpoint = byEndpoint.get(message.endpoint_id) ?? emptyCounts();
      byEndpoint.set(message.endpoint_id, endpoint);
      for (const counts of [totals, day, endpoint]) add(counts, message.status);
    }
    const rows = await Promise.all(
      [...byEndpoint.entries()].map(async ([endpointId, counts]) => ({
        endpoint_id: endpointId,
        url: (await endpoints.get(scope, endpointId))?.url ?? null,
        ...countsView(counts),
      })),
    );
    return {
      object: 'webhook_delivery_report',
      livemode: scope.mode === 'live',
      from: period.from,
      to: period.to,
      totals: countsView(totals),
      days: period.days.map((date) => ({ date, ...countsView(byDay.get(date) ?? emptyCounts()) })),
      by_endpoint: rows.sort((a, b) => b.messages - a.messages || a.endpoint_id.localeCompare(b.endpoint_id)),
    };
  };
}
