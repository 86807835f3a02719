import { UnavailableError } from '@vaultline/core';
import type { Bus, BusHealth, FailingSubscription, SubscribeOptions } from './bus.port';

/** The subscription's topics without repeats; a subscription needs at least one. */
export function topicsOf(options: Pick<SubscribeOptions, 'topics' | 'group'>): string[] {
  const topics = [...new Set(options.topics)];
  if (topics.length === 0 || topics.some((topic) => typeof topic !== 'string' || topic.length === 0)) {
    throw new TypeError(`subscription of group ${options.group} needs a non-empty list of topics`);
  }
  return topics;
}

/**
 * The topics each group of one bus consumes. A group is one list of topics: on Kafka the group
 * leader assigns only the topics it subscribed itself (kafkajs consumerGroup.js), so members of one
 * group with different lists would leave partitions unconsumed. Refusing it in every adapter keeps
 * code that would break on Kafka from passing on the others.
 */
export class GroupTopics {
  private readonly groups = new Map<string, { topics: string; members: number }>();

  /** Registers one member of `group`; returns its release. Throws when the group consumes other topics. */
  claim(group: string, topics: string[]): () => void {
    const wanted = JSON.stringify([...topics].sort());
    const current = this.groups.get(group);
    if (current && current.topics !== wanted) {
      throw new Error(`group ${group} already consumes ${current.topics}; every member of a group subscribes to the same topics in one call (got ${wanted})`);
    }
    const entry = current ?? { topics: wanted, members: 0 };
    entry.members++;
    this.groups.set(group, entry);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.members--;
      if (entry.members === 0 && this.groups.get(group) === entry) this.groups.delete(group);
    };
  }
}

/** The failing subscriptions of one bus, keyed by whatever identifies a consuming loop in the adapter. */
export class SubscriptionHealth {
  private readonly failing = new Map<object, FailingSubscription>();

  fail(loop: object, subscription: { group: string; topics: string[] }, error: string): void {
    if (this.failing.has(loop)) {
      (this.failing.get(loop) as FailingSubscription).error = error;
      return;
    }
    this.failing.set(loop, { group: subscription.group, topics: [...subscription.topics], error, since: new Date().toISOString() });
  }

  recover(loop: object): void {
    this.failing.delete(loop);
  }

  report(): BusHealth {
    return { failing: [...this.failing.values()].map((entry) => ({ ...entry, topics: [...entry.topics] })) };
  }
}

/**
 * For a service's readiness check: throws when a subscription of this bus has stopped consuming, or its
 * transport does not answer. An UnavailableError (503 not_ready) whose detail says why (groups, topics,
 * since when, the error's kind; never a broker's address), so /ready tells an operator what to look at.
 */
export function assertSubscriptionsConsuming(bus: Pick<Bus, 'health'>): void {
  const { failing, unreachable } = bus.health();
  if (failing.length === 0 && !unreachable) return;
  const reasons: string[] = [];
  if (unreachable)
    reasons.push(
      unreachable.starting
        ? `the bus has not answered since the service started (${unreachable.error})`
        : `the bus has not answered since ${unreachable.since} (${unreachable.error}); the outbox keeps the events`,
    );
  if (failing.length > 0)
    reasons.push(`bus subscriptions not consuming: ${failing.map((f) => `${f.group} (${f.topics.join(', ')}) since ${f.since}: ${f.error}`).join('; ')}`);
  throw new UnavailableError(`Not ready: ${reasons.join('; ')}.`, 'not_ready');
}

/**
 * The bus whose health() lists a subscription, or its transport as unreachable, only once it has been
 * failing for `graceMs` (BUS_UNHEALTHY_AFTER_SECONDS): /ready stays up through a short broker outage
 * instead of emptying every Service at once, and fails when consumption really stopped. A transport that
 * has not answered once since the start is reported at once: nothing was ever consumed or published.
 */
export function withHealthGrace<B extends Bus>(bus: B, graceMs: number, now: () => number = Date.now): B {
  if (graceMs <= 0) return bus;
  const longEnough = (since: string) => now() - Date.parse(since) >= graceMs;
  return new Proxy(bus, {
    get(target, property, receiver) {
      if (property === 'health')
        return (): BusHealth => {
          const { failing, unreachable } = target.health();
          return {
            failing: failing.filter((entry) => longEnough(entry.since)),
            ...(unreachable && (unreachable.starting || longEnough(unreachable.since)) ? { unreachable } : {}),
          };
        };
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
