import { MemoryDocumentStore, moveOutOfSystemScope, SYSTEM_SCOPE, type StoredDocument } from '../src';

interface Session extends StoredDocument {
  owner_merchant_id?: string;
  state: string;
}

const SESSIONS = 'sessions';
const rewrite = ({ owner_merchant_id: owner, version: _version, ...session }: Session) => (owner ? { ...session, merchant_id: owner } : null);

async function storeWith(...docs: Omit<Session, 'version'>[]) {
  const store = new MemoryDocumentStore();
  await store.register({ name: SESSIONS });
  await store.transaction((uow) => docs.forEach((doc) => uow.insert<Session>(SESSIONS, doc)));
  return { store, sessions: store.collection<Session>(SESSIONS) };
}

describe('moving documents out of the system scope (start-up migration)', () => {
  it('when documents name their merchant in another field, then each moves to its merchant under the same id, without that field', async () => {
    const { store, sessions } = await storeWith(
      { id: 's1', merchant_id: SYSTEM_SCOPE, owner_merchant_id: 'merchant_a', mode: 'test' as const, state: 'open' },
      { id: 's2', merchant_id: SYSTEM_SCOPE, owner_merchant_id: 'merchant_b', mode: 'test' as const, state: 'completed' },
    );

    expect(await moveOutOfSystemScope(store, SESSIONS, rewrite)).toBe(2);

    expect(await sessions.get({ merchantId: 'merchant_a', mode: 'test' }, 's1')).toEqual({
      id: 's1',
      merchant_id: 'merchant_a',
      mode: 'test' as const,
      state: 'open',
      version: 1,
    });
    expect(await sessions.get({ merchantId: 'merchant_b', mode: 'test' }, 's2')).toMatchObject({ state: 'completed' });
    expect(await sessions.count(SYSTEM_SCOPE, {})).toBe(0);
  });

  it("when it runs again, or finds documents that are the system's own or already moved, then it leaves them as they are", async () => {
    const { store, sessions } = await storeWith(
      { id: 's1', merchant_id: SYSTEM_SCOPE, owner_merchant_id: 'merchant_a', mode: 'test' as const, state: 'open' },
      { id: 'sys', merchant_id: SYSTEM_SCOPE, state: 'system' },
      { id: 's3', merchant_id: 'merchant_c', mode: 'test' as const, state: 'open' },
    );
    await moveOutOfSystemScope(store, SESSIONS, rewrite);

    expect(await moveOutOfSystemScope(store, SESSIONS, rewrite)).toBe(0);

    expect(await sessions.get(SYSTEM_SCOPE, 'sys')).toMatchObject({ state: 'system', version: 1 });
    expect(await sessions.get({ merchantId: 'merchant_c', mode: 'test' }, 's3')).toMatchObject({ version: 1 });
    expect(await sessions.getGlobal('s1')).toMatchObject({ merchant_id: 'merchant_a', mode: 'test' as const });
  });

  it('when there are more documents than one page, then every one moves', async () => {
    const docs = Array.from({ length: 230 }, (_, i) => ({
      id: `s${String(i).padStart(3, '0')}`,
      merchant_id: SYSTEM_SCOPE,
      owner_merchant_id: `m${i % 3}`,
      mode: 'test' as const,
      state: 'open',
    }));
    const { store, sessions } = await storeWith(...docs);

    expect(await moveOutOfSystemScope(store, SESSIONS, rewrite)).toBe(230);

    expect(await sessions.count(SYSTEM_SCOPE, {})).toBe(0);
    expect(await sessions.count({ merchantId: 'm1', mode: 'test' }, {})).toBe(77);
  });
});
