import { z } from 'zod';
import { envList, loadConfig } from '@vaultline/config';
import type { ServiceName } from '@vaultline/runtime';

/**
 * Services that may run on a thread of their own. Not the gateway (it owns the merchant edge) or the
 * forwarder (its egress pool, and the detokenization it calls in-process when the vault is beside it).
 */
export const THREADABLE_SERVICES = ['vault', 'importer', 'notifier', 'payment-orchestrator'] as const satisfies readonly ServiceName[];

/**
 * EMBEDDED_SERVICE_THREADS: comma-separated services to run on a worker thread of their own in the
 * embedded profile, or "none": every service on the main thread. The default is `importer,notifier`: an
 * account import's platform calls, job bookkeeping and counting, and the notifier's event log, delivery
 * bookkeeping and signed webhooks then use the second core instead of competing with merchant requests on
 * the main thread (payments bench: 448 against 271–301 payments/s with the importer alone; about 85 MB
 * more idle memory per thread; docs/benchmarks.md).
 */
const threadConfigSchema = z.object({
  EMBEDDED_SERVICE_THREADS: envList()
    .default(['importer', 'notifier'])
    .transform((names, ctx) => {
      if (names.length === 1 && names[0] === 'none') return [];
      const unknown = names.filter((name) => !(THREADABLE_SERVICES as readonly string[]).includes(name));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `cannot run ${unknown.join(', ')} on a thread of its own; choose from ${THREADABLE_SERVICES.join(', ')} or none`,
        });
        return z.NEVER;
      }
      return names as ServiceName[];
    }),
});

export function loadThreadedServices(env: NodeJS.ProcessEnv): ServiceName[] {
  return loadConfig(threadConfigSchema, env).EMBEDDED_SERVICE_THREADS;
}

/** The services EMBEDDED_SERVICE_THREADS names, if the bus lets threads share it (an SQLite file, the default); else none. */
export function threadedServicesOf(env: NodeJS.ProcessEnv): ServiceName[] {
  const busUrl = env.BUS_URL;
  return busUrl === undefined || busUrl.startsWith('sqlite:') ? loadThreadedServices(env) : [];
}
