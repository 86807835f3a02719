import { describeIndexStep, planIndexes, type IndexShape } from './index-plan';

const partition: IndexShape = { name: 'ix_payments_partition', key: { _partition: 1, _id: 1 } };
const byReference: IndexShape = {
  name: 'ux_payments_reference_ab12cd34',
  key: { _partition: 1, reference: 1 },
  unique: true,
  partialFilterExpression: { reference: { $type: ['string', 'number'] } },
};
const idIndex: IndexShape = { name: '_id_', key: { _id: 1 } };
const actions = (steps: ReturnType<typeof planIndexes>) => steps.map((step) => `${step.action} ${step.index.name}`);

describe('planning a collection’s indexes at migrate', () => {
  it('when the database has what the release declares, then nothing changes', () => {
    expect(planIndexes('payments', [partition, byReference], [idIndex, partition, byReference])).toEqual([]);
  });

  it('when a declared index is missing, then it is created', () => {
    expect(actions(planIndexes('payments', [partition, byReference], [idIndex, partition]))).toEqual(['create ux_payments_reference_ab12cd34']);
  });

  it('when the store owns an index the release no longer declares (a unique constraint removed), then it is dropped; _id_ and an operator’s own index are left alone', () => {
    const handMade: IndexShape = { name: 'by_created_for_reports', key: { created_at: -1 } };
    expect(actions(planIndexes('payments', [partition], [idIndex, partition, byReference, handMade]))).toEqual(['drop ux_payments_reference_ab12cd34']);
  });

  it('when an index has the declared name but not its shape, then it is replaced, saying what differs; drops come before creates', () => {
    const notUnique = { ...byReference, unique: false, partialFilterExpression: undefined };
    const stale: IndexShape = { name: 'ix_payments_status_00000000', key: { _partition: 1, status: 1 } };
    const steps = planIndexes('payments', [partition, byReference], [idIndex, partition, notUnique, stale]);
    expect(actions(steps)).toEqual(['drop ix_payments_status_00000000', 'replace ux_payments_reference_ab12cd34']);
    expect(describeIndexStep(steps[1]!)).toBe(
      'replace payments.ux_payments_reference_ab12cd34: unique false → true; partialFilterExpression null → {"reference":{"$type":["string","number"]}}',
    );
  });

  it.each([
    ['keys in another order', { key: { reference: 1, _partition: 1 } }],
    ['a descending key', { key: { _partition: 1, reference: -1 } }],
    ['sparse', { sparse: true }],
    ['a TTL', { expireAfterSeconds: 60 }],
    ['a collation', { collation: { locale: 'en', strength: 2 } }],
    ['another partial filter', { partialFilterExpression: { reference: { $exists: true } } }],
  ] as const)('when the found index differs by %s, then it is not the declared one', (_what, change) => {
    expect(actions(planIndexes('payments', [byReference], [{ ...byReference, ...change }]))).toEqual(['replace ux_payments_reference_ab12cd34']);
  });

  it('when the declared shape exists under another name (made by hand), then it counts as present and nothing is created; the filter’s key order does not matter', () => {
    const sameShape: IndexShape = {
      name: 'reference_unique_by_hand',
      key: { _partition: 1, reference: 1 },
      unique: true,
      partialFilterExpression: { reference: { $type: ['string', 'number'] } },
    };
    expect(planIndexes('payments', [partition, byReference], [idIndex, partition, sameShape])).toEqual([]);
    const reordered = { ...byReference, partialFilterExpression: JSON.parse('{"reference":{"$type":["string","number"]}}') as unknown };
    expect(planIndexes('payments', [byReference], [reordered])).toEqual([]);
  });
});
