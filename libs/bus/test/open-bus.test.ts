import { waitFor } from '@vaultline/core';
import { openBus } from '../src';
import { parseKafkaUrl } from '../src/kafka/kafka-bus';

describe('openBus', () => {
  it('when the URL is memory://, then it opens a working in-process bus', async () => {
    const bus = await openBus('memory://');
    const received: string[] = [];
    await bus.subscribe({ topics: ['t'], group: 'g', handler: async (d) => void received.push(d.value) });

    await bus.publish([{ topic: 't', key: 'k', value: 'hello', headers: {} }]);

    await waitFor(() => received.length === 1);
    await bus.close();
    await expect(bus.publish([{ topic: 't', key: 'k', value: 'late', headers: {} }])).rejects.toThrow('bus is closed');
  });

  it('when the URL is sqlite::memory:, then it opens a SQLite-backed bus', async () => {
    const bus = await openBus('sqlite::memory:');
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
  });

  it('when the scheme is unknown, then opening fails naming the supported ones', async () => {
    await expect(openBus('nats://localhost:4222')).rejects.toThrow('unsupported bus URL scheme: nats: (use memory://, sqlite:<file>, redis://, kafka://)');
  });

  it('when a kafka URL lists brokers and partitions, then both are read from it', () => {
    expect(parseKafkaUrl('kafka://b1:9092, b2:9092?partitions=6')).toEqual({ brokers: ['b1:9092', 'b2:9092'], partitions: 6 });
    expect(parseKafkaUrl('kafka://b1:9092')).toEqual({ brokers: ['b1:9092'] });
    expect(() => parseKafkaUrl('kafka://')).toThrow('names no broker');
    expect(() => parseKafkaUrl('kafka://b1:9092?partitions=0')).toThrow('positive integer');
  });
});
