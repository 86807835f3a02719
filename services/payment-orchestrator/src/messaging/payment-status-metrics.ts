import type { OutboxMessage } from '@vaultline/store';
import { paymentMetrics, type ServiceMetrics } from '@vaultline/metrics';
import { EVENT_HEADERS } from '@vaultline/bus';
import { BUILT_IN_FLOWS } from '../domain/flows/flow';

/**
 * vaultline_payments_total{status,flow} from the payment events this service published: every status
 * change of a payment is one payment.<status> event, committed with the change, so counting them once
 * they left the outbox counts committed transitions only (a relay that crashed between publish and
 * removal publishes, and counts, a batch twice). A payment with no flow yet counts as flow "none"; the built-in
 * flows by name, a merchant's own flows in hashed buckets (paymentMetrics: the labels must not grow with merchants).
 */
export function countPaymentStatuses(metrics: ServiceMetrics): (messages: OutboxMessage[]) => void {
  const payments = paymentMetrics(metrics, Object.keys(BUILT_IN_FLOWS));
  return (messages) => {
    for (const message of messages) {
      if (!message.headers[EVENT_HEADERS.type]?.startsWith('payment.')) continue;
      const data = (JSON.parse(message.value) as { data?: { status?: unknown; flow?: unknown } }).data;
      if (typeof data?.status !== 'string') continue;
      payments.reached(data.status, typeof data.flow === 'string' ? data.flow : 'none');
    }
  };
}
