import { FLOW_BUCKETS, hashedBucket } from './bounded-labels';
import { METRIC } from './metric-names';
import type { ServiceMetrics } from './metrics-registry';

export interface PaymentMetrics {
  /** A payment reached `status` (authorized, captured, failed…) in `flow`: count it once per transition. */
  reached(status: string, flow: string): void;
}

/**
 * vaultline_payments_total{status,flow}, for the payment orchestrator (built once in its app.ts from
 * runtime.metrics). `knownFlows` (the built-in flows) and "none" are counted by name; a merchant's own flow
 * under one of FLOW_BUCKETS `custom-NN` labels, so the series do not grow with merchants.
 */
export function paymentMetrics(metrics: ServiceMetrics, knownFlows: readonly string[] = []): PaymentMetrics {
  const payments = metrics.counter(METRIC.payments, "Payments that reached a status, by status and flow (merchants' own flows in custom-NN buckets).", [
    'status',
    'flow',
  ]);
  const named = new Set(['none', ...knownFlows]);
  return { reached: (status, flow) => payments.inc({ status, flow: named.has(flow) ? flow : hashedBucket(flow, FLOW_BUCKETS, 'custom-') }) };
}
