import { lagOf, type GroupOffsets, type TopicOffsets } from '../src/kafka/kafka-lag';

// The answers below are shaped (and, where kafkajs's docs/Admin.md gives them, valued) as kafkajs 2.2 documents
// admin.fetchTopicOffsets(topic) and admin.fetchOffsets({ groupId, topics }).
const topicOffsets: Record<string, TopicOffsets> = {
  topic1: [
    { partition: 0, offset: '31004', high: '31004', low: '421' },
    { partition: 1, offset: '54312', high: '54312', low: '3102' },
    { partition: 2, offset: '32103', high: '32103', low: '518' },
    { partition: 3, offset: '28', high: '28', low: '0' },
  ],
  topic2: [
    { partition: 0, offset: '1300', high: '1300', low: '0' },
    { partition: 1, offset: '4567', high: '4567', low: '4000' },
  ],
};

describe('Kafka consumer lag from the admin API (vaultline_bus_consumer_lag)', () => {
  it("when a group has committed up to the end of every partition (the docs' example answers), then its lag is 0", () => {
    const committed: GroupOffsets = [
      {
        topic: 'topic1',
        partitions: [
          { partition: 0, offset: '31004' },
          { partition: 1, offset: '54312' },
          { partition: 2, offset: '32103' },
          { partition: 3, offset: '28' },
        ],
      },
    ];

    expect(lagOf('notifier.merchant-events', committed, topicOffsets)).toEqual([{ group: 'notifier.merchant-events', topic: 'topic1', lag: 0 }]);
  });

  it('when a group is behind on some partitions, then its lag on each topic is the sum of end offset minus committed offset', () => {
    const committed: GroupOffsets = [
      {
        topic: 'topic1',
        partitions: [
          { partition: 0, offset: '31000' },
          { partition: 1, offset: '54312' },
          { partition: 2, offset: '32003' },
          { partition: 3, offset: '28' },
        ],
      },
      {
        topic: 'topic2',
        partitions: [
          { partition: 0, offset: '1234' },
          { partition: 1, offset: '4567' },
        ],
      },
    ];

    expect(lagOf('g', committed, topicOffsets)).toEqual([
      { group: 'g', topic: 'topic1', lag: 4 + 100 },
      { group: 'g', topic: 'topic2', lag: 66 },
    ]);
  });

  it("when a group never committed on a partition (offset '-1'), then everything the partition still retains counts (high − low)", () => {
    const committed: GroupOffsets = [
      {
        topic: 'topic2',
        partitions: [
          { partition: 0, offset: '-1' },
          { partition: 1, offset: '-1' },
        ],
      },
    ];

    expect(lagOf('new-group', committed, topicOffsets)).toEqual([{ group: 'new-group', topic: 'topic2', lag: 1300 + 567 }]);
  });

  it('when offsets exceed 2^53 (int64 strings), then the difference is still exact', () => {
    const ends: Record<string, TopicOffsets> = { big: [{ partition: 0, offset: '9007199254740993', high: '9007199254740993', low: '0' }] };

    expect(lagOf('g', [{ topic: 'big', partitions: [{ partition: 0, offset: '9007199254740990' }] }], ends)).toEqual([{ group: 'g', topic: 'big', lag: 3 }]);
  });
});
