/**
 * What a key with the scope `dashboard` may do on the merchant API (with X-API-Key or through a dashboard
 * session opened with it): read everything a merchant key reads (every GET and HEAD), and change only
 * what support staff do on a payment and a webhook: capture, cancel, refund, replay a delivery; plus the
 * flow matrix's explain, which changes nothing (a POST only because it takes a sample payment). It never
 * creates payments or tokens, sends card data, forwards, imports, edits flows, the flow matrix, processor
 * accounts, webhook endpoints, checkout settings or API keys.
 *
 * The services see such a request with the scope `merchant` (without `card_data`): the gateway is the one
 * place that tells a dashboard key from a secret key, here.
 */
const DASHBOARD_CHANGES: { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/payments\/[^/]+\/capture$/ },
  { method: 'POST', path: /^\/payments\/[^/]+\/cancel$/ },
  { method: 'POST', path: /^\/payments\/[^/]+\/refunds$/ },
  { method: 'POST', path: /^\/webhook-endpoints\/[^/]+\/deliveries\/[^/]+\/replay$/ },
  { method: 'POST', path: /^\/flow-matrix\/explain$/ },
];

const READS = new Set(['GET', 'HEAD']);

export function dashboardKeyMay(method: string, path: string): boolean {
  if (READS.has(method)) return true;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return DASHBOARD_CHANGES.some((change) => change.method === method && change.path.test(trimmed));
}
