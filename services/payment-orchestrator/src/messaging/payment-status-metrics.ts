import type { OutboxMessage } from '@vaultline/store';
import { paymentMetrics, type ServiceMetrics } from '@vaultline/metrics';
import { EVENT_HEADERS } from '@vaultline/bus';

/**
 * vaultline_payments_total{status,flow} from the payment events this service published: every status
 * change of a payment is one payment.<status> event, committed with the change, so counting them once
 * they left the outbox counts committed transitions only (a relay that crashed between publish and
 * removal publishes, and counts, a batch twice). A payment with no flow yet counts as flow "none".
 */
export function countPaymentStatuses(metrics: ServiceMetrics): (messages: OutboxMessage[]) => void {
  const payments = paymentMetrics(metrics);
  return (messages) => {
    for (const message of messages) {
      if (!message.headers[EVENT_HEADERS.type]?.startsWith('payment.')) continue;
      const data = (JSON.parse(message.value) as { data?: { status?: unknown; flow?: unknown } }).data;
      if (typeof data?.status !== 'string') continue;
      payments.reached(data.status, typeof data.flow === 'string' ? data.flow : 'none');
    }
  };
}
