import { parseWhere } from '../where';
import { mongoFilter, uniqueIndexFilter } from './mongo-where';

describe('MongoDB filters and the unique indexes’ partial filter', () => {
  it('when a lookup compares a field with a value, then the filter carries the unique index’s partial filter clause for it, so the planner can use that index', () => {
    const filter = mongoFilter(parseWhere({ key_hash: 'abc' }));

    expect(filter).toEqual({ $and: [{ key_hash: { $eq: 'abc' } }, uniqueIndexFilter(['key_hash'])] });
  });

  it('when a lookup names both fields of a compound unique index, then both clauses of its partial filter are in the query', () => {
    const filter = mongoFilter(parseWhere({ provider: 'acme', external_id: { in: ['a', 'b'] } }), { merchant_id: 'm_1' });

    const clauses = filter.$and as object[];
    for (const [field, condition] of Object.entries(uniqueIndexFilter(['provider', 'external_id']))) expect(clauses).toContainEqual({ [field]: condition });
    expect(filter.merchant_id).toBe('m_1');
  });

  it('when a condition can match a missing or null field (eq null, ne, in with null), then no type clause narrows it', () => {
    const filter = mongoFilter(parseWhere({ deleted_at: null, status: { ne: 'done' }, reference: { in: ['r', null] } }));

    expect(filter).toEqual({ $and: [{ deleted_at: { $eq: null } }, { status: { $ne: 'done' } }, { reference: { $in: ['r', null] } }] });
  });
});
