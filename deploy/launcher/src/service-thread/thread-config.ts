import { z } from 'zod';
import { envList, loadConfig } from '@vaultline/config';
import type { ServiceName } from '@vaultline/http';

/**
 * Services that may run on a thread of their own: those that reach the others only through the bus
 * and HTTP. Not the gateway (it hands requests to the services of the main thread), the vault (its
 * in-process API and the TTL store holding security codes) or the forwarder (it calls that API).
 */
export const THREADABLE_SERVICES = ['importer', 'notifier', 'payment-orchestrator'] as const satisfies readonly ServiceName[];

/**
 * EMBEDDED_SERVICE_THREADS: comma-separated services to run on their own worker thread in the embedded
 * profile, or "none" (the default): every service on the main thread. `importer` suits an embedded
 * deployment that imports large accounts: the import's platform calls and counting use the second core.
 */
const threadConfigSchema = z.object({
  EMBEDDED_SERVICE_THREADS: envList()
    .default(['none'])
    .transform((names, ctx) => {
      if (names.length === 1 && names[0] === 'none') return [];
      const unknown = names.filter((name) => !(THREADABLE_SERVICES as readonly string[]).includes(name));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `cannot run ${unknown.join(', ')} on a thread of its own; choose from ${THREADABLE_SERVICES.join(', ')} or none` });
        return z.NEVER;
      }
      return names as ServiceName[];
    }),
});

export function loadThreadedServices(env: NodeJS.ProcessEnv): ServiceName[] {
  return loadConfig(threadConfigSchema, env).EMBEDDED_SERVICE_THREADS;
}
