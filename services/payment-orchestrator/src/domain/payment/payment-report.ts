import { successRate, type ReportPeriod, type Scope } from '@vaultline/core';
import { everyItem } from '@vaultline/store';
import type { Payment } from './payment';
import type { PaymentRepository, TransactionRepository } from './payment-ports';

type Outcome = 'succeeded' | 'failed' | 'pending' | 'none';

/**
 * What became of a payment: failed; succeeded once a processor authorized it (captured, capturing,
 * canceled after authorization…); pending while it is processing; none for one canceled before any
 * authorization (counted in `count` only).
 */
export function outcomeOf(payment: Pick<Payment, 'status' | 'progress'>): Outcome {
  if (payment.status === 'failed') return 'failed';
  if (payment.progress.authorized_by !== null || ['authorized', 'capturing', 'captured', 'canceling'].includes(payment.status)) return 'succeeded';
  if (payment.status === 'processing') return 'pending';
  return 'none';
}

interface Counts {
  count: number;
  succeeded: number;
  failed: number;
  pending: number;
  volume: Map<string, number>;
}

const emptyCounts = (): Counts => ({ count: 0, succeeded: 0, failed: 0, pending: 0, volume: new Map() });

function add(counts: Counts, payment: Payment, outcome: Outcome): void {
  counts.count += 1;
  if (outcome === 'none') return;
  counts[outcome] += 1;
  if (outcome === 'succeeded') counts.volume.set(payment.currency_code, (counts.volume.get(payment.currency_code) ?? 0) + (payment.amount.authorized ?? payment.amount.requested));
}

const countsView = ({ count, succeeded, failed, pending, volume }: Counts) => ({
  count,
  succeeded,
  failed,
  pending,
  success_rate: successRate(succeeded, failed),
  volume: [...volume.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency_code, amount]) => ({ currency_code, amount })),
});

interface Attempts {
  attempts: number;
  succeeded: number;
  failed: number;
}

function tally(rows: Map<string, Attempts>, key: string, succeeded: boolean | null): void {
  const row = rows.get(key) ?? { attempts: 0, succeeded: 0, failed: 0 };
  row.attempts += 1;
  if (succeeded === true) row.succeeded += 1;
  if (succeeded === false) row.failed += 1;
  rows.set(key, row);
}

const rateRows = <K extends string>(rows: Map<string, Attempts>, key: K) =>
  [...rows.entries()]
    .sort(([a, x], [b, y]) => y.attempts - x.attempts || a.localeCompare(b))
    .map(([name, row]) => ({ [key]: name, ...row, success_rate: successRate(row.succeeded, row.failed) }) as Record<K, string> & Attempts & { success_rate: number | null });

export type PaymentReport = ReturnType<typeof buildReport>;

function buildReport(scope: Scope, period: ReportPeriod, byDay: Map<string, Counts>, totals: Counts, processors: Map<string, Attempts>, flows: Map<string, Attempts>, declines: Map<string, number>) {
  return {
    object: 'payment_report' as const,
    livemode: scope.mode === 'live',
    from: period.from,
    to: period.to,
    totals: countsView(totals),
    days: period.days.map((date) => ({ date, ...countsView(byDay.get(date) ?? emptyCounts()) })),
    by_processor: rateRows(processors, 'processor'),
    by_flow: rateRows(flows, 'flow'),
    decline_reasons: [...declines.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([reason, count]) => ({ reason, count })),
  };
}

export type ReportPayments = (scope: Scope, period: ReportPeriod) => Promise<PaymentReport>;

/**
 * GET /reports/payments: the payments created in the period (their state now) and the authorization
 * attempts made in it, in the key's mode. Read on request, page by page: the period is bounded
 * (MAX_REPORT_DAYS), the cost is one pass over its payments and attempts.
 */
export function reportPayments({ payments, transactions }: { payments: Pick<PaymentRepository, 'search'>; transactions: Pick<TransactionRepository, 'listInPeriod'> }): ReportPayments {
  return async (scope, period) => {
    const byDay = new Map<string, Counts>();
    const totals = emptyCounts();
    const flows = new Map<string, Attempts>();
    const declines = new Map<string, number>();
    const createdLte = new Date(Date.parse(period.endsBefore) - 1).toISOString();
    for await (const payment of everyItem((page) => payments.search(scope, { created_gte: period.startsAt, created_lte: createdLte }, page))) {
      const outcome = outcomeOf(payment);
      const date = payment.created_at.slice(0, 10);
      const day = byDay.get(date) ?? emptyCounts();
      byDay.set(date, day);
      add(day, payment, outcome);
      add(totals, payment, outcome);
      if (payment.decision) tally(flows, payment.decision.flow.name, outcome === 'succeeded' ? true : outcome === 'failed' ? false : null);
      if (outcome === 'failed') declines.set(payment.failure_reason ?? 'unknown', (declines.get(payment.failure_reason ?? 'unknown') ?? 0) + 1);
    }
    const processors = new Map<string, Attempts>();
    for await (const attempt of everyItem((page) => transactions.listInPeriod(scope, { kind: 'authorization', startsAt: period.startsAt, endsBefore: period.endsBefore }, page))) {
      tally(processors, attempt.processor, attempt.status === 'succeeded');
    }
    return buildReport(scope, period, byDay, totals, processors, flows, declines);
  };
}

