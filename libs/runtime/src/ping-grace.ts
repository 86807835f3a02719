import { UnavailableError } from '@vaultline/core';
import type { Logger } from '@vaultline/logger';

/** What the grace is put around: a store or TTL store, whose ping() throws while it does not answer. */
export interface Pingable {
  ping(): Promise<void>;
}

export interface PingGraceOptions {
  /** How the component is named in /ready's answer and the log: `store`, `TTL store`. */
  name: string;
  /** STORE_UNHEALTHY_AFTER_SECONDS in ms: how long pings may fail before ping() says so. 0: no grace, ping() as it is. */
  graceMs: number;
  /**
   * How long one ping() waits for an answer (default 1 s): a ping that hangs (a MongoDB election, a Redis
   * that stopped answering) counts as failed after it, so /ready answers within the probe's timeout (3 s in
   * deploy/k8s) instead of timing out itself, which the kubelet counts as a failure whatever the grace.
   */
  waitMs?: number;
  logger?: Logger;
  now?: () => number;
}

/** Default for PingGraceOptions.waitMs. */
export const PING_WAIT_MS = 1_000;

/**
 * The store (or TTL store) whose ping() fails only once pings have been failing for `graceMs`
 * (STORE_UNHEALTHY_AFTER_SECONDS), as the bus's withHealthGrace does for its subscriptions: /ready
 * stays up through a short outage of MongoDB or Redis (an election takes about 10 s), so a blip does not
 * take every pod of every service out of its Service at once; the requests that need the store fail
 * meanwhile with their own 503, as they would anyway. A longer outage fails /ready with a detail that says
 * since when and why. Everything but ping() is the target's own. The outage starts at the first failed
 * ping and ends at the first one that answers: one ping at a time goes to the target, later callers
 * share it.
 */
export function withPingGrace<T extends Pingable>(target: T, options: PingGraceOptions): T {
  if (options.graceMs <= 0) return target;
  const now = options.now ?? Date.now;
  const waitMs = options.waitMs ?? PING_WAIT_MS;
  let failing: { since: number; error: string } | undefined;
  let inFlight: Promise<void> | undefined;

  const probe = (): Promise<void> => {
    inFlight ??= target
      .ping()
      .then(
        () => {
          if (failing) options.logger?.info({ component: options.name, outage_ms: now() - failing.since }, `${options.name} answers again`);
          failing = undefined;
        },
        (error: unknown) => {
          failed(error instanceof Error ? error.message : String(error));
          throw error;
        },
      )
      .finally(() => (inFlight = undefined));
    return inFlight;
  };

  const failed = (error: string) => {
    if (!failing) {
      failing = { since: now(), error };
      options.logger?.warn(
        { component: options.name, error, grace_ms: options.graceMs },
        `${options.name} does not answer; /ready stays up for the grace (STORE_UNHEALTHY_AFTER_SECONDS)`,
      );
    } else failing.error = error;
  };

  const gracedPing = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      probe().then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
      }),
    ]).finally(() => clearTimeout(timer));
    if (answered) return;
    if (!failing) failed(`no answer within ${waitMs} ms`);
    const outage = failing as { since: number; error: string };
    if (now() - outage.since < options.graceMs) return;
    throw new UnavailableError(`Not ready: the ${options.name} has not answered since ${new Date(outage.since).toISOString()} (${outage.error}).`, 'not_ready');
  };

  return new Proxy(target, {
    get(object, property, receiver) {
      if (property === 'ping') return gracedPing;
      const value: unknown = Reflect.get(object, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
