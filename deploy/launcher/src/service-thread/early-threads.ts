import type { ServiceName } from '@vaultline/runtime';
import { openServiceThread, type ServiceThread, type ServiceThreadHooks } from './service-thread';
import { loadThreadedServices } from './thread-config';

/**
 * Service threads opened before the launcher has even loaded the rest of the system: a thread's own
 * module loading (its service, compiled by tsx) then runs on the second core while the main thread
 * loads everything else, instead of after it (start-up time). What the thread's service is built
 * from is sent later, with 'start'. Log lines and a failure that come before the launcher takes the
 * threads over are kept and handed over then.
 */
export interface EarlyServiceThreads {
  services: ServiceName[];
  /** The thread of `service`, once listening; undefined for a service not opened early. */
  take(service: ServiceName): Promise<ServiceThread> | undefined;
  /** From now on the threads' log lines and failures go to `hooks` (those kept so far first). */
  attach(hooks: ServiceThreadHooks): void;
  /** Stops the threads nobody took (the launcher decided otherwise). */
  stopUntaken(): Promise<void>;
}

/** The services EMBEDDED_SERVICE_THREADS names, if the bus lets threads share it (an SQLite file, the default). */
export function threadedServicesOf(env: NodeJS.ProcessEnv): ServiceName[] {
  const busUrl = env.BUS_URL;
  return busUrl === undefined || busUrl.startsWith('sqlite:') ? loadThreadedServices(env) : [];
}

export function openServiceThreadsEarly(env: NodeJS.ProcessEnv): EarlyServiceThreads {
  const services = threadedServicesOf(env);
  const keptLines: string[] = [];
  const keptFailures: Error[] = [];
  let attached: ServiceThreadHooks | undefined;
  const hooks: ServiceThreadHooks = {
    writeLogLine: (line) => (attached ? attached.writeLogLine(line) : keptLines.push(line)),
    onFailure: (error) => (attached ? attached.onFailure(error) : keptFailures.push(error)),
  };
  const opening = new Map(services.map((service) => [service, openServiceThread(service, hooks)] as const));
  // A thread that fails to open is reported by whoever takes it; none is left unhandled meanwhile.
  for (const thread of opening.values()) thread.catch(() => undefined);
  const taken = new Set<ServiceName>();
  return {
    services,
    take(service) {
      const thread = opening.get(service);
      if (thread) taken.add(service);
      return thread;
    },
    attach(target) {
      attached = target;
      for (const line of keptLines.splice(0)) target.writeLogLine(line);
      for (const error of keptFailures.splice(0)) target.onFailure(error);
    },
    async stopUntaken() {
      const untaken = [...opening].filter(([service]) => !taken.has(service));
      await Promise.all(untaken.map(([, thread]) => thread.then((opened) => opened.stop()).catch(() => undefined)));
    },
  };
}
