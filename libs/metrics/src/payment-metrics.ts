import { METRIC } from './metric-names';
import type { ServiceMetrics } from './metrics-registry';

export interface PaymentMetrics {
  /** A payment reached `status` (authorized, captured, failed…) in `flow`: count it once per transition. */
  reached(status: string, flow: string): void;
}

/** vaultline_payments_total{status,flow}, for the payment orchestrator (built once in its app.ts from runtime.metrics). */
export function paymentMetrics(metrics: ServiceMetrics): PaymentMetrics {
  const payments = metrics.counter(METRIC.payments, 'Payments that reached a status, by status and flow.', ['status', 'flow']);
  return { reached: (status, flow) => payments.inc({ status, flow }) };
}
