import type { Clock } from '@vaultline/core';

export interface ComponentHealth {
  name: string;
  status: 'ok' | 'unavailable';
  /** How long the check took (or until it failed), in milliseconds. */
  latency_ms: number;
}

export interface ServiceHealth {
  object: 'service_health';
  /** ok when every component answered; degraded otherwise. */
  status: 'ok' | 'degraded';
  checked_at: string;
  components: ComponentHealth[];
}

/** A named check: resolves when the component is healthy, rejects otherwise. */
export type HealthCheck = { name: string; check: () => Promise<void> };

export type CheckServiceHealth = () => Promise<ServiceHealth>;

/**
 * The operators' service health page (GET /admin/health): the gateway's store and every service's
 * /health, checked at once, each with its latency. Unlike /ready it names each component and always
 * answers 200: the page shows what is down.
 */
export function checkServiceHealth({ checks, clock }: { checks: HealthCheck[]; clock: Clock }): CheckServiceHealth {
  return async () => {
    const checkedAt = clock.now();
    const components = await Promise.all(
      checks.map(async ({ name, check }): Promise<ComponentHealth> => {
        const started = performance.now();
        const status = await check().then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        );
        return { name, status, latency_ms: Math.round(performance.now() - started) };
      }),
    );
    return {
      object: 'service_health',
      status: components.every((c) => c.status === 'ok') ? 'ok' : 'degraded',
      checked_at: checkedAt.toISOString(),
      components,
    };
  };
}
