import { successRate, type ReportPeriod, type Scope } from '@vaultline/core';
import { everyItem, type Page, type PageRequest } from '@vaultline/store';
import type { Dispute } from '../disputes/dispute';
import type { Refund } from '../refunds/refund';
import type { Payment, ProcessorTransaction } from '../payment/payment';
import type { PaymentRepository, TransactionRepository } from '../payment/payment-ports';

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
}

const emptyCounts = (): Counts => ({ count: 0, succeeded: 0, failed: 0, pending: 0 });

function add(counts: Counts, outcome: Outcome): void {
  counts.count += 1;
  if (outcome !== 'none') counts[outcome] += 1;
}

/**
 * The money that moved, per currency, in minor units: what a merchant reconciles with the processor's
 * balance. Each figure is counted on the UTC day it happened at the processor, whatever day its payment was
 * created: `authorized` (successful authorizations, a hold, not money), `captured` (successful captures),
 * `refunded` (refunds on the day they succeeded), `disputed` (disputes on the day they were opened, inquiries
 * included, for the amount disputed), `won_back` (disputes won, on the day they were decided for the
 * merchant), and `net` = captured − refunded − disputed + won_back.
 */
interface Money {
  authorized: number;
  captured: number;
  refunded: number;
  disputed: number;
  won_back: number;
}

type Figure = keyof Money;
type MoneyByCurrency = Map<string, Money>;

function addMoney(ledgers: Array<MoneyByCurrency | undefined>, currency: string, figure: Figure, amount: number): void {
  for (const ledger of ledgers) {
    if (!ledger) continue;
    const money = ledger.get(currency) ?? { authorized: 0, captured: 0, refunded: 0, disputed: 0, won_back: 0 };
    money[figure] += amount;
    ledger.set(currency, money);
  }
}

const moneyView = (money: MoneyByCurrency | undefined) =>
  [...(money ?? new Map<string, Money>()).entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency_code, m]) => ({ currency_code, ...m, net: m.captured - m.refunded - m.disputed + m.won_back }));

const countsView = ({ count, succeeded, failed, pending }: Counts, money: MoneyByCurrency | undefined) => ({
  count,
  succeeded,
  failed,
  pending,
  success_rate: successRate(succeeded, failed),
  amounts: moneyView(money),
});

interface Attempts {
  attempts: number;
  succeeded: number;
  failed: number;
}

function countAttempt(rows: Map<string, Attempts>, key: string, succeeded: boolean | null): void {
  const row = rows.get(key) ?? { attempts: 0, succeeded: 0, failed: 0 };
  row.attempts += 1;
  if (succeeded === true) row.succeeded += 1;
  if (succeeded === false) row.failed += 1;
  rows.set(key, row);
}

const rateRows = <K extends string>(rows: Map<string, Attempts>, key: K) =>
  [...rows.entries()]
    .sort(([a, x], [b, y]) => y.attempts - x.attempts || a.localeCompare(b))
    .map(
      ([name, row]) =>
        ({ [key]: name, ...row, success_rate: successRate(row.succeeded, row.failed) }) as Record<K, string> & Attempts & { success_rate: number | null },
    );

export type PaymentReport = ReturnType<typeof buildReport>;

interface Tally {
  byDay: Map<string, Counts>;
  totals: Counts;
  moneyByDay: Map<string, MoneyByCurrency>;
  moneyTotals: MoneyByCurrency;
}

function buildReport(
  scope: Scope,
  period: ReportPeriod,
  { byDay, totals, moneyByDay, moneyTotals }: Tally,
  processors: Map<string, Attempts>,
  flows: Map<string, Attempts>,
  declines: Map<string, number>,
) {
  return {
    object: 'payment_report' as const,
    livemode: scope.mode === 'live',
    from: period.from,
    to: period.to,
    totals: countsView(totals, moneyTotals),
    days: period.days.map((date) => ({ date, ...countsView(byDay.get(date) ?? emptyCounts(), moneyByDay.get(date)) })),
    by_processor: rateRows(processors, 'processor'),
    by_flow: rateRows(flows, 'flow'),
    decline_reasons: [...declines.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([reason, count]) => ({ reason, count })),
  };
}

export type ReportPayments = (scope: Scope, period: ReportPeriod) => Promise<PaymentReport>;

/** A period of UTC days as instants: from its first midnight, up to (not including) the one after its last day. */
export interface PeriodBounds {
  startsAt: string;
  endsBefore: string;
}

/** What the report reads besides payments and transactions: refunds and disputes by when they moved money. */
export interface ReportSources {
  payments: Pick<PaymentRepository, 'search' | 'get'>;
  transactions: Pick<TransactionRepository, 'listInPeriod'>;
  /** Refunds that succeeded in the period (a settled refund never moves again: its last update is when). */
  refunds: { listSucceededInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Refund>> };
  disputes: {
    listOpenedInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Dispute>>;
    /** Disputes won whose last update (the decision, or the funds coming back) is in the period. */
    listWonInPeriod(scope: Scope, period: PeriodBounds, page: PageRequest): Promise<Page<Dispute>>;
  };
}

/**
 * GET /reports/payments: the payments created in the period (their state now), the authorization attempts
 * made in it, and the money that moved in it, per UTC day and currency (Money). Read on request, page by
 * page: the period is bounded (MAX_REPORT_DAYS), the cost is one pass over its payments, transactions,
 * refunds and disputes.
 */
export function reportPayments({ payments, transactions, refunds, disputes }: ReportSources): ReportPayments {
  return async (scope, period) => {
    const tally: Tally = { byDay: new Map(), totals: emptyCounts(), moneyByDay: new Map(), moneyTotals: new Map() };
    const flows = new Map<string, Attempts>();
    const declines = new Map<string, number>();
    // Transactions name their payment, not its currency: the period's payments give most, the others are read once.
    const currencies = new Map<string, string>();
    const createdLte = new Date(Date.parse(period.endsBefore) - 1).toISOString();
    for await (const payment of everyItem((page) => payments.search(scope, { created_gte: period.startsAt, created_lte: createdLte }, page))) {
      currencies.set(payment.id, payment.currency_code);
      const outcome = outcomeOf(payment);
      const date = payment.created_at.slice(0, 10);
      const day = tally.byDay.get(date) ?? emptyCounts();
      tally.byDay.set(date, day);
      add(day, outcome);
      add(tally.totals, outcome);
      if (payment.decision) countAttempt(flows, payment.decision.flow.name, outcome === 'succeeded' ? true : outcome === 'failed' ? false : null);
      if (outcome === 'failed') declines.set(payment.failure_reason ?? 'unknown', (declines.get(payment.failure_reason ?? 'unknown') ?? 0) + 1);
    }
    const currencyOf = async (paymentId: string): Promise<string | null> => {
      if (!currencies.has(paymentId)) currencies.set(paymentId, (await payments.get(scope, paymentId))?.currency_code ?? '');
      return currencies.get(paymentId) || null;
    };
    const book = (at: string, currency: string, figure: Figure, amount: number) => {
      const date = at.slice(0, 10);
      const day = tally.moneyByDay.get(date) ?? new Map<string, Money>();
      tally.moneyByDay.set(date, day);
      addMoney([day, tally.moneyTotals], currency, figure, amount);
    };
    const processors = new Map<string, Attempts>();
    const moved = async (kind: 'authorization' | 'capture', figure: Figure, each?: (attempt: ProcessorTransaction) => void) => {
      for await (const attempt of everyItem((page) =>
        transactions.listInPeriod(scope, { kind, startsAt: period.startsAt, endsBefore: period.endsBefore }, page),
      )) {
        each?.(attempt);
        const currency = attempt.status === 'succeeded' && attempt.amount !== null ? await currencyOf(attempt.payment_id) : null;
        if (currency) book(attempt.created_at, currency, figure, attempt.amount!);
      }
    };
    await moved('authorization', 'authorized', (attempt) => countAttempt(processors, attempt.processor, attempt.status === 'succeeded'));
    await moved('capture', 'captured');
    for await (const refund of everyItem((page) => refunds.listSucceededInPeriod(scope, period, page)))
      book(refund.updated_at, refund.currency_code, 'refunded', refund.amount);
    for await (const dispute of everyItem((page) => disputes.listOpenedInPeriod(scope, period, page)))
      book(dispute.created_at, dispute.currency_code, 'disputed', dispute.amount);
    for await (const dispute of everyItem((page) => disputes.listWonInPeriod(scope, period, page)))
      book(dispute.updated_at, dispute.currency_code, 'won_back', dispute.amount);
    return buildReport(scope, period, tally, processors, flows, declines);
  };
}
