/** The services behind the gateway. */
export const UPSTREAM_SERVICES = ['vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier'] as const;
export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];

export interface RouteTarget {
  service: UpstreamService;
  /** public routes need no API key (checkout pages, the browser SDK, sessions). */
  access: 'merchant' | 'public';
  prefix: string;
  /** The bodies the route reads: JSON (the default), or JSON and forms (forwarding: the destination's own format). */
  bodies?: 'json' | 'json-or-form';
}

/** Longest prefix first: /tokens/imports must win over /tokens. Paths are forwarded unchanged. */
const ROUTES: RouteTarget[] = [
  { prefix: '/tokens/imports', service: 'importer', access: 'merchant' },
  { prefix: '/tokens', service: 'vault', access: 'merchant' },
  { prefix: '/cde-import', service: 'vault', access: 'merchant' },
  { prefix: '/forward', service: 'forwarder', access: 'merchant', bodies: 'json-or-form' },
  { prefix: '/payments', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/reports/payments', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/reports/webhook-deliveries', service: 'notifier', access: 'merchant' },
  { prefix: '/refunds', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/flow-matrix', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/flows', service: 'payment-orchestrator', access: 'merchant' },
  // The authorization outcomes success-rate routing compares (GET /routing/stats).
  { prefix: '/routing', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/processor-accounts', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/processors', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/disputes', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/early-fraud-warnings', service: 'payment-orchestrator', access: 'merchant' },
  // The earlier payment interface: customers, their stored cards and mandates.
  { prefix: '/customers', service: 'payment-orchestrator', access: 'merchant' },
  { prefix: '/payment-methods', service: 'payment-orchestrator', access: 'merchant' },
  /** Processors' notifications carry no API key: the account's signature authenticates them (checked there). */
  { prefix: '/processor-notifications', service: 'payment-orchestrator', access: 'public' },
  { prefix: '/webhook-endpoints', service: 'notifier', access: 'merchant' },
  { prefix: '/events', service: 'notifier', access: 'merchant' },
  // The hosted page's look (name, colour, logo): the vault serves the page, so it keeps its settings.
  { prefix: '/settings/checkout', service: 'vault', access: 'merchant' },
  { prefix: '/checkout', service: 'vault', access: 'public' },
  { prefix: '/sdk', service: 'vault', access: 'public' },
  { prefix: '/sessions', service: 'vault', access: 'public' },
];

/** The route for a request path, matching whole segments only (/tokensx is not /tokens). */
export function resolveRoute(path: string): RouteTarget | undefined {
  return ROUTES.find((route) => path === route.prefix || path.startsWith(`${route.prefix}/`));
}

export function isUpstreamService(name: string): name is UpstreamService {
  return (UPSTREAM_SERVICES as readonly string[]).includes(name);
}

/**
 * Paths the gateway refuses to forward: dot segments and encoded slashes or dots could make an
 * upstream resolve a different route than the one the gateway authorised.
 */
export function isSafePath(path: string): boolean {
  if (/%2f|%5c|%2e|\\/i.test(path)) return false;
  return !path.split('/').some((segment) => segment === '.' || segment === '..');
}
