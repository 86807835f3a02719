import { z } from 'zod';
import { envList, loadConfig } from '@vaultline/config';
import type { ServiceName } from '@vaultline/runtime';

/**
 * Services that may run on a thread of their own. The gateway relays merchant requests to them by
 * message, the vault's in-process API is called across the same port, and the vault's thread holds the
 * in-process TTL store. Not the gateway (it owns the merchant edge) or the forwarder.
 */
export const THREADABLE_SERVICES = ['vault', 'importer', 'notifier', 'payment-orchestrator'] as const satisfies readonly ServiceName[];

/**
 * EMBEDDED_SERVICE_THREADS: comma-separated services to run on their own worker thread in the embedded
 * profile, or "none": every service on the main thread. The default is `importer`: an account import's
 * platform calls, job bookkeeping and counting use the second core instead of competing with merchant
 * requests on the main thread (about 1.4× the import rate in our bench), for about 0.4 s of start-up
 * and 85 MB of memory.
 * `vault` moves tokenization off the main thread, which pays only with cores to spare (see README).
 */
const threadConfigSchema = z.object({
  EMBEDDED_SERVICE_THREADS: envList()
    .default(['importer'])
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
