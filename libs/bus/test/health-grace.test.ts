import { assertSubscriptionsConsuming, withHealthGrace, type Bus, type BusHealth, type FailingSubscription } from '../src';
import { openBus } from '../src';

describe('readiness hysteresis on the bus (BUS_UNHEALTHY_AFTER_SECONDS)', () => {
  let bus: Bus;
  let failing: FailingSubscription[];
  let unreachable: BusHealth['unreachable'];
  let clock: number;
  beforeEach(async () => {
    bus = await openBus('memory://');
    failing = [];
    unreachable = undefined;
    clock = Date.parse('2026-11-26T08:00:00Z');
    // The adapter's own report, as a crashed consumer (or brokers that do not answer) would make it.
    bus.health = () => ({ failing, ...(unreachable ? { unreachable } : {}) });
  });
  afterEach(() => bus.close());

  it('when a subscription has been failing for less than 30 s, then readiness holds; from 30 s on it fails, naming the group; once it consumes again it holds', () => {
    const graced = withHealthGrace(bus, 30_000, () => clock);
    failing = [{ group: 'vault.checkout', topics: ['payments.v1'], error: 'Connection error: ECONNREFUSED', since: new Date(clock).toISOString() }];

    clock += 29_000;
    expect(() => assertSubscriptionsConsuming(graced)).not.toThrow();
    clock += 1_000;
    expect(() => assertSubscriptionsConsuming(graced)).toThrow(
      /vault\.checkout \(payments\.v1\) since 2026-11-26T08:00:00.000Z: Connection error: ECONNREFUSED/,
    );
    failing = [];
    expect(() => assertSubscriptionsConsuming(graced)).not.toThrow();
  });

  it('when the brokers stop answering, then readiness holds for 30 s and then fails saying since when; brokers that never answered since the start fail it at once', () => {
    const graced = withHealthGrace(bus, 30_000, () => clock);
    unreachable = { since: new Date(clock).toISOString(), error: 'KafkaJSConnectionError: Connection error', starting: false };

    clock += 29_000;
    expect(() => assertSubscriptionsConsuming(graced)).not.toThrow();
    clock += 1_000;
    expect(() => assertSubscriptionsConsuming(graced)).toThrow(
      'Not ready: the bus has not answered since 2026-11-26T08:00:00.000Z (KafkaJSConnectionError: Connection error); the outbox keeps the events.',
    );

    unreachable = { since: new Date(clock).toISOString(), error: 'not connected yet', starting: true };
    expect(() => assertSubscriptionsConsuming(graced)).toThrow('Not ready: the bus has not answered since the service started (not connected yet).');
  });

  it('when the grace is 0, then the bus is handed back as it is (a failure counts at once), and the graced bus still publishes and pings', async () => {
    expect(withHealthGrace(bus, 0)).toBe(bus);
    const graced = withHealthGrace(bus, 30_000, () => clock);
    await expect(graced.ping()).resolves.toBeUndefined();
    await expect(graced.publish([{ topic: 't', key: 'k', value: '{}', headers: {} }])).resolves.toBeUndefined();
  });
});
