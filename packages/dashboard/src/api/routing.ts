// Routing as the dashboard shows it: processors by their account's name, a decline in words, and the
// authorization rate by processor that success-rate routing compares now (GET /routing/stats).
import type { MerchantComponents, Vaultline } from '@vaultline/node';

type RoutingStats = MerchantComponents['schemas']['RoutingStats'];
type ProcessorAccount = MerchantComponents['schemas']['ProcessorAccount'];
export type Decline = MerchantComponents['schemas']['Decline'];
export type PaymentRouting = MerchantComponents['schemas']['PaymentRouting'];

/** A processor by the name its account was given (the built-in simulator by its id). */
export type NameOf = (processor: string) => string;

export function namesOf(accounts: ReadonlyArray<Pick<ProcessorAccount, 'id' | 'name'>>): NameOf {
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  return (processor) => names.get(processor) ?? processor;
}

/** A decline in a line: its category, our code, the advice, and whether it may be retried. */
export function declineText(decline: Decline): string {
  const parts = [decline.code];
  if (decline.processor_code && decline.processor_code !== decline.code) parts.push(`${decline.processor_code} at the processor`);
  if (decline.advice_code) parts.push(`advice ${decline.advice_code}`);
  parts.push(decline.retryable ? 'retryable' : 'never retried');
  return `${decline.category.replace(/_/g, ' ')} (${parts.join(', ')})`;
}

export interface ProcessorRate {
  processor: string;
  label: string;
  attempts: number;
  approved: number;
  declined: number;
  errors: number;
  /** Over the whole window, 0–100, one decimal; null without attempts. */
  percent: number | null;
  /** What decisions compare: recent outcomes weighing more (a bucket's weight halves every ROUTING_STATS_HALF_LIFE), 0–100; null without attempts. */
  recentPercent: number | null;
}

const percentOf = (rate: number | null | undefined) => (rate === null || rate === undefined ? null : Math.round(rate * 1000) / 10);

/** The stats grouped by processor, by name, the highest recent rate (the one decisions compare) first. */
export function processorRatesOf(stats: RoutingStats, nameOf: NameOf): ProcessorRate[] {
  return stats.data
    .map((line) => ({
      processor: line.processor,
      label: nameOf(line.processor),
      attempts: line.attempts,
      approved: line.approved,
      declined: line.declined,
      errors: line.errors,
      percent: percentOf(line.authorization_rate),
      recentPercent: percentOf(line.recent_authorization_rate),
    }))
    .sort((a, b) => (b.recentPercent ?? -1) - (a.recentPercent ?? -1) || a.label.localeCompare(b.label));
}

export interface RoutingOverview {
  windowMinutes: number;
  rates: ProcessorRate[];
  /** Processors by their account's name (the overview's charts name them so too). */
  nameOf: NameOf;
}

export async function loadRoutingOverview(merchant: Vaultline): Promise<RoutingOverview> {
  const [stats, accounts] = await Promise.all([
    merchant.get('/routing/stats', { params: { query: { group_by: 'processor' } } }) as Promise<RoutingStats>,
    merchant.get('/processor-accounts') as Promise<{ data: ProcessorAccount[] }>,
  ]);
  const nameOf = namesOf(accounts.data);
  return { windowMinutes: Math.round(stats.window_seconds / 60), rates: processorRatesOf(stats, nameOf), nameOf };
}
