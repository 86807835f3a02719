/**
 * Names shared with deploy/ (Prometheus alert rules, the Grafana dashboard): a rename here is a rename
 * there. Every series also carries `service`.
 */
export const METRIC = {
  /** counter {method, route, status}: route is the express route pattern, never the raw path. */
  httpRequests: 'vaultline_http_requests_total',
  /** histogram {method, route}, seconds. */
  httpRequestDuration: 'vaultline_http_request_duration_seconds',
  /** gauge {group, topic}: messages appended and not yet committed by the group. */
  busConsumerLag: 'vaultline_bus_consumer_lag',
  /** counter {group, topic}: messages a handler handled (acknowledged). */
  busMessagesHandled: 'vaultline_bus_messages_handled_total',
  /** counter {group, topic}: handler attempts that threw (each retry counts). */
  busHandlerFailures: 'vaultline_bus_handler_failures_total',
  /** counter {group, topic}: messages sent to `<topic>.dead-letter`; group "outbox" = outbox messages parked by the relay. */
  busDeadLetters: 'vaultline_bus_dead_letters_total',
  /** gauge: committed outbox messages not yet on the bus. */
  outboxBacklog: 'vaultline_outbox_backlog',
  /** gauge {endpoint}: webhook messages waiting for (another) delivery attempt; the 20 endpoints with most by id, the rest `other` (bounded-labels.ts). */
  webhookBacklog: 'vaultline_webhook_backlog',
  /** counter {endpoint, outcome}: webhook delivery attempts, outcome delivered|failed; endpoint = one of 64 hashed buckets (bounded-labels.ts). */
  webhookDeliveries: 'vaultline_webhook_deliveries_total',
  /** counter {endpoint}: failed webhook delivery attempts; endpoint = one of 64 hashed buckets. */
  webhookFailures: 'vaultline_webhook_failures_total',
  /** histogram {outcome}: what the forwarder added to the destination's own time, seconds. */
  forwardAddedLatency: 'vaultline_forward_added_latency_seconds',
  /** counter {status, flow}: payments reaching a status, by flow (built-in flows by name, merchants' own in 16 custom-NN buckets). */
  payments: 'vaultline_payments_total',
  /** counter {processor, reason}: processor notifications refused at the public route (invalid_signature: per item; too_many_items, rate_limited: per request). */
  processorNotificationsRejected: 'vaultline_processor_notifications_rejected_total',
  /** gauge {state}: import jobs in progress (preparing, running). */
  importJobs: 'vaultline_import_jobs',
  /** gauge {count}: payment methods of the jobs in progress: total found so far, imported, updated, failed. */
  importPaymentMethods: 'vaultline_import_payment_methods',
} as const;
