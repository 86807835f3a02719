import { sleep, waitFor } from '@vaultline/core';
import { ValidationError } from '@vaultline/core';
import { MetricsRegistry } from '@vaultline/metrics';
import { LogBus, MemoryLogStorage, observedBus, type Bus } from '../src';

/** The value of one series in the Prometheus text, or undefined when the series is absent. */
async function valueOf(registry: MetricsRegistry, series: string): Promise<number | undefined> {
  const line = (await registry.render()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the observed bus (metrics of one service on a bus)', () => {
  let inner: Bus;
  let registry: MetricsRegistry;
  let bus: Bus;

  beforeEach(() => {
    inner = new LogBus(new MemoryLogStorage(), { partitions: 2 });
    registry = new MetricsRegistry();
    bus = observedBus(inner, registry.forService('notifier'));
  });

  afterEach(async () => {
    await bus.close();
  });

  it('when a handler fails twice and then succeeds, then two failures and one handled message are counted for its group and topic', async () => {
    let calls = 0;
    const subscription = await bus.subscribe({
      topics: ['tokens'],
      group: 'g1',
      retryDelayMs: () => 1,
      handler: async () => {
        calls++;
        if (calls <= 2) throw new Error('not yet');
      },
    });
    await bus.publish([{ topic: 'tokens', key: 'k', value: '{}', headers: {} }]);
    await waitFor(() => calls === 3);
    await sleep(5);

    const labels = 'service="notifier",group="g1",topic="tokens"';
    expect(await valueOf(registry, `vaultline_bus_handler_failures_total{${labels}}`)).toBe(2);
    expect(await valueOf(registry, `vaultline_bus_messages_handled_total{${labels}}`)).toBe(1);
    expect(await valueOf(registry, `vaultline_bus_dead_letters_total{${labels}}`)).toBeUndefined();
    await subscription.stop();
  });

  it('when a handler rejects a message as invalid, then it is counted as a dead letter at once', async () => {
    const dead: string[] = [];
    const watcher = await inner.subscribe({ topics: ['tokens.dead-letter'], group: 'watch', handler: async (d) => void dead.push(d.key) });
    const subscription = await bus.subscribe({
      topics: ['tokens'],
      group: 'g1',
      handler: async () => {
        throw new ValidationError('data', 'bad event');
      },
    });
    await bus.publish([{ topic: 'tokens', key: 'k', value: '{}', headers: {} }]);
    await waitFor(() => dead.length === 1);

    expect(await valueOf(registry, 'vaultline_bus_dead_letters_total{service="notifier",group="g1",topic="tokens"}')).toBe(1);
    await subscription.stop();
    await watcher.stop();
  });

  it('when messages are appended that the group has not handled, then vaultline_bus_consumer_lag counts them until they are committed', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let handled = 0;
    const subscription = await bus.subscribe({
      topics: ['tokens', 'payments'],
      group: 'g1',
      handler: async () => {
        await gate;
        handled++;
      },
    });
    await bus.publish([
      { topic: 'tokens', key: 'a', value: '{}', headers: {} },
      { topic: 'tokens', key: 'a', value: '{}', headers: {} },
      { topic: 'tokens', key: 'a', value: '{}', headers: {} },
    ]);

    expect(await valueOf(registry, 'vaultline_bus_consumer_lag{service="notifier",group="g1",topic="tokens"}')).toBe(3);
    expect(await valueOf(registry, 'vaultline_bus_consumer_lag{service="notifier",group="g1",topic="payments"}')).toBe(0);
    release();
    await waitFor(() => handled === 3);
    await waitFor(async () => (await valueOf(registry, 'vaultline_bus_consumer_lag{service="notifier",group="g1",topic="tokens"}')) === 0);

    await subscription.stop();
    expect(await valueOf(registry, 'vaultline_bus_consumer_lag{service="notifier",group="g1",topic="tokens"}')).toBeUndefined();
  });
});
