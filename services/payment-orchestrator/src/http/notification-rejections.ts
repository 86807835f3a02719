import type { Logger } from '@vaultline/logger';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';
import type { NotificationRejections } from '../domain/processor-notifications/receive-processor-notification';

/**
 * vaultline_processor_notifications_rejected_total{processor,reason} and one warn line per request: what
 * the public notification routes refused and did not store (forged items, oversized bodies, senders over
 * their rate limit). The line names the account and the sender's address, never the body.
 */
export function countNotificationRejections(metrics: ServiceMetrics, logger: Logger): NotificationRejections {
  const rejected = metrics.counter(
    METRIC.processorNotificationsRejected,
    'Processor notifications refused at the public route and not stored, by processor and reason.',
    ['processor', 'reason'],
  );
  return ({ processor, reason, items, accountId, clientAddress }) => {
    rejected.inc({ processor, reason }, items);
    logger.warn({ processor, reason, items, account_id: accountId, client_address: clientAddress }, 'processor notification refused');
  };
}
