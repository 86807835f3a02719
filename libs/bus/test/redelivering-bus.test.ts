import { openBus } from '../src';
import { RedeliveringBus } from '../src/testing';

describe('RedeliveringBus (the duplicate-delivery harness)', () => {
  it('when messages are published, then the handler gets each two or three times, some copies after later messages of the same key', async () => {
    const bus = new RedeliveringBus(await openBus('memory://'), { seed: 42 });
    const seen: string[] = [];
    await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void seen.push(d.value) });
    const values = Array.from({ length: 30 }, (_, n) => `m${n}`);

    await bus.publish(values.map((value) => ({ topic: 't', key: 'one-aggregate', value, headers: {} })));
    await bus.settle();

    for (const value of values) {
      const copies = seen.filter((v) => v === value).length;
      expect({ value, copies: copies >= 2 && copies <= 3 }).toEqual({ value, copies: true });
    }
    expect(bus.stats.outOfOrder).toBeGreaterThan(0);
    expect(bus.published).toHaveLength(30);
    await bus.close();
  });

  it('when redelivery is off, then every message is handled once, in order', async () => {
    const bus = new RedeliveringBus(await openBus('memory://'), { seed: 1, maxExtraCopies: 0 });
    const seen: string[] = [];
    await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void seen.push(d.value) });

    await bus.publish(['a', 'b', 'c'].map((value) => ({ topic: 't', key: 'k', value, headers: {} })));
    await bus.settle();

    expect(seen).toEqual(['a', 'b', 'c']);
    await bus.close();
  });
});
