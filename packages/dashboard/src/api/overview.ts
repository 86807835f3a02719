// The overview's figures: the server's reports of a period of UTC days (GET /reports/payments and
// GET /reports/webhook-deliveries, in the session's mode), shaped for the charts.
import type { MerchantComponents, Vaultline } from '@vaultline/node';

export const OVERVIEW_DAYS = 14;

type PaymentReport = MerchantComponents['schemas']['PaymentReport'];
type DeliveryReport = MerchantComponents['schemas']['WebhookDeliveryReport'];

export interface Rate {
  label: string;
  /** 0–100, one decimal. */
  percent: number;
}

/** The money figures of the report, as it defines them (GET /reports/payments: each on the UTC day it moved). */
const MONEY_FIGURES = ['captured', 'refunded', 'disputed', 'won_back', 'net'] as const;
export type MoneyFigure = (typeof MONEY_FIGURES)[number];

/** One currency's money over the period: its totals, and each figure per day (minor units). */
export interface CurrencyMoney {
  currency: string;
  totals: Record<MoneyFigure, number>;
  byDay: Record<MoneyFigure, number[]>;
}

export interface Overview {
  days: string[];
  /** Per currency, the most captured first: the money that moved per day (GET /reports/payments' amounts). */
  money: CurrencyMoney[];
  countByDay: number[];
  byProcessor: Rate[];
  byFlow: Rate[];
  declineReasons: Array<{ reason: string; count: number }>;
  webhooks: Rate[];
  payments: number;
  webhookMessages: number;
}

/** The first and last day (YYYY-MM-DD, UTC) of the period ending today. */
export function periodEnding(now: Date, days = OVERVIEW_DAYS): { from: string; to: string } {
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(days - 1), to: day(0) };
}

export async function loadOverview(merchant: Vaultline, now = new Date()): Promise<Overview> {
  const query = periodEnding(now);
  const [payments, deliveries] = await Promise.all([
    merchant.get('/reports/payments', { params: { query } }) as Promise<PaymentReport>,
    merchant.get('/reports/webhook-deliveries', { params: { query } }) as Promise<DeliveryReport>,
  ]);
  return overviewOf(payments, deliveries);
}

const percentOf = (rate: number | null | undefined) => Math.round((rate ?? 0) * 1000) / 10;

const figures = <T>(value: (figure: MoneyFigure) => T) => Object.fromEntries(MONEY_FIGURES.map((figure) => [figure, value(figure)])) as Record<MoneyFigure, T>;

/** The report's amounts per currency, each figure per day of the period (0 on a day it did not move). */
function moneyOf(payments: PaymentReport): CurrencyMoney[] {
  return payments.totals.amounts
    .map((total) => ({
      currency: total.currency_code,
      totals: figures((figure) => total[figure]),
      byDay: figures((figure) => payments.days.map((day) => day.amounts.find((row) => row.currency_code === total.currency_code)?.[figure] ?? 0)),
    }))
    .sort((a, b) => b.totals.captured - a.totals.captured || a.currency.localeCompare(b.currency));
}

export function overviewOf(payments: PaymentReport, deliveries: DeliveryReport): Overview {
  return {
    days: payments.days.map((day) => day.date),
    money: moneyOf(payments),
    countByDay: payments.days.map((day) => day.count),
    byProcessor: payments.by_processor.map((row) => ({ label: row.processor, percent: percentOf(row.success_rate) })),
    byFlow: payments.by_flow.map((row) => ({ label: row.flow ?? 'earlier payments (no flow)', percent: percentOf(row.success_rate) })),
    declineReasons: payments.decline_reasons,
    webhooks: deliveries.by_endpoint.map((row) => ({ label: row.url ? shortUrl(row.url) : 'a deleted endpoint', percent: percentOf(row.success_rate) })),
    payments: payments.totals.count,
    webhookMessages: deliveries.totals.messages,
  };
}

/** An endpoint's URL short enough for a chart's axis: host and path, at most 32 characters. */
export function shortUrl(url: string): string {
  let shown = url;
  try {
    const parsed = new URL(url);
    shown = `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    // Not a URL: shown as it is.
  }
  return shown.length > 32 ? `${shown.slice(0, 31)}…` : shown;
}
