export { MetricsRegistry, LATENCY_BUCKETS } from './metrics-registry';
export type { ServiceMetrics, CounterHandle, HistogramHandle, GaugeReader, GaugeReading, Labels } from './metrics-registry';
export { startMetricsServer } from './metrics-server';
export type { MetricsServer, MetricsSources } from './metrics-server';
export { METRIC } from './metric-names';
export { paymentMetrics } from './payment-metrics';
export type { PaymentMetrics } from './payment-metrics';
export { BACKLOG_TOP_ENDPOINTS, ENDPOINT_BUCKETS, endpointBucket, FLOW_BUCKETS, hashedBucket, topReadings } from './bounded-labels';
