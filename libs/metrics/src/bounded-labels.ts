import type { GaugeReading } from './metrics-registry';

/**
 * Label values that merchants create — webhook endpoints' ids (up to 200 per merchant), flows' names (up to
 * 500 per merchant) — must not each become a series: Prometheus's memory and every query grow with the
 * series count, and so would the number of merchants. Counters fold such a value into one of a fixed number
 * of buckets by a stable hash (the same bucket in every replica, process and release, so rates add up
 * across replicas and restarts); a scrape-time gauge keeps the largest values by name and sums the rest.
 */

/** Webhook endpoints' buckets on the notifier's counters: `endpoint="bucket-00"` … `"bucket-63"`. */
export const ENDPOINT_BUCKETS = 64;
/** Merchants' own flows' buckets on vaultline_payments_total: `flow="custom-00"` … `"custom-15"` (built-in flows keep their names). */
export const FLOW_BUCKETS = 16;
/** vaultline_webhook_backlog: the endpoints with the most deliveries waiting keep their id, the rest are `other`. */
export const BACKLOG_TOP_ENDPOINTS = 20;

/** FNV-1a (32 bits) of the UTF-8 bytes: stable everywhere, unlike a seeded hash; spread is all that matters here. */
function fnv1a(value: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(value, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** `value` folded into one of `buckets` labels `<prefix>NN`. */
export function hashedBucket(value: string, buckets: number, prefix: string): string {
  return `${prefix}${String(fnv1a(value) % buckets).padStart(String(buckets - 1).length, '0')}`;
}

/** The bucket a webhook endpoint's id is counted under (the notifier's log names the endpoint itself). */
export const endpointBucket = (endpointId: string): string => hashedBucket(endpointId, ENDPOINT_BUCKETS, 'bucket-');

/**
 * A gauge's readings with at most `top` distinct values of `label` (the largest readings), the others summed
 * into one reading whose `label` is `other`: the total is unchanged, the series count bounded by top + 1.
 */
export function topReadings(readings: readonly GaugeReading[], label: string, top: number): GaugeReading[] {
  const sorted = [...readings].sort((a, b) => b.value - a.value || String(a.labels?.[label]).localeCompare(String(b.labels?.[label])));
  if (sorted.length <= top) return sorted;
  const rest = sorted.slice(top).reduce((sum, reading) => sum + reading.value, 0);
  return [...sorted.slice(0, top), { labels: { [label]: 'other' }, value: rest }];
}
