import type { Mode } from '@vaultline/core';
import { forEachStoreAdapter, insertWrittenBeforeModes } from '@vaultline/store/testing';
import { assignMissingModes, SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '../src';

interface Payment extends StoredDocument {
  recorded_mode?: Mode;
  reference: string;
}

const PAYMENTS = 'payments';
const test = (merchantId: string) => ({ merchantId, mode: 'test' as const });
const live = (merchantId: string) => ({ merchantId, mode: 'live' as const });
const recordedOrTest = (doc: Payment): Mode => doc.recorded_mode ?? 'test';

forEachStoreAdapter('assigning a mode to documents written before modes (start-up migration)', (open) => {
  let store: DocumentStore;

  beforeEach(async () => {
    store = await open();
    await store.register({ name: PAYMENTS, indexes: [{ fields: ['reference'], unique: true }] });
  });

  const payments = () => store.collection<Payment>(PAYMENTS);

  it('when documents have no mode, then each gets the one modeOf gives: test ones stay where they were, live ones move to the live scope', async () => {
    await insertWrittenBeforeModes<Payment>(store, PAYMENTS, [
      { id: 'p1', merchant_id: 'm_a', reference: 'r1' },
      { id: 'p2', merchant_id: 'm_a', recorded_mode: 'live', reference: 'r2' },
      { id: 'p3', merchant_id: 'm_b', recorded_mode: 'test', reference: 'r3' },
    ]);
    expect(await payments().get(test('m_a'), 'p1')).not.toHaveProperty('mode');

    expect(await assignMissingModes(store, PAYMENTS, recordedOrTest)).toBe(3);

    expect(await payments().get(test('m_a'), 'p1')).toEqual({ id: 'p1', merchant_id: 'm_a', mode: 'test', reference: 'r1', version: 2 });
    expect(await payments().get(live('m_a'), 'p2')).toMatchObject({ mode: 'live', reference: 'r2' });
    expect(await payments().get(test('m_a'), 'p2')).toBeNull();
    expect(await payments().get(test('m_b'), 'p3')).toMatchObject({ mode: 'test' });
    expect(await payments().count(test('m_a'), {})).toBe(1);
    expect(await payments().count(live('m_a'), {})).toBe(1);
  });

  it('when a migrated document is written again, then the store accepts it', async () => {
    await insertWrittenBeforeModes<Payment>(store, PAYMENTS, [{ id: 'p1', merchant_id: 'm_a', recorded_mode: 'live', reference: 'r1' }]);
    await assignMissingModes(store, PAYMENTS, recordedOrTest);

    const payment = await payments().get(live('m_a'), 'p1');
    await store.transaction((uow) => uow.update<Payment>(PAYMENTS, { ...payment!, reference: 'r1-changed' }));

    expect(await payments().get(live('m_a'), 'p1')).toMatchObject({ reference: 'r1-changed' });
  });

  it("when it runs again, or meets documents that already have a mode or are the system's own, then it changes nothing", async () => {
    await insertWrittenBeforeModes<Payment>(store, PAYMENTS, [{ id: 'p1', merchant_id: 'm_a', reference: 'r1' }]);
    await store.transaction((uow) => {
      uow.insert<Payment>(PAYMENTS, { id: 'p2', merchant_id: 'm_a', mode: 'live', reference: 'r2' });
      uow.insert<Payment>(PAYMENTS, { id: 'sys', merchant_id: SYSTEM_SCOPE, reference: 'r3' });
    });
    await assignMissingModes(store, PAYMENTS, recordedOrTest);

    expect(await assignMissingModes(store, PAYMENTS, () => 'live')).toBe(0);

    expect(await payments().get(test('m_a'), 'p1')).toMatchObject({ mode: 'test', version: 2 });
    expect(await payments().get(live('m_a'), 'p2')).toMatchObject({ version: 1 });
    expect(await payments().get(SYSTEM_SCOPE, 'sys')).not.toHaveProperty('mode');
  });

  it('when there are more documents than one page, then every one gets its mode', async () => {
    const docs = Array.from({ length: 230 }, (_, i) => ({ id: `p${String(i).padStart(3, '0')}`, merchant_id: `m${i % 3}`, reference: `r${i}` }));
    await insertWrittenBeforeModes<Payment>(store, PAYMENTS, docs);

    expect(await assignMissingModes(store, PAYMENTS, recordedOrTest)).toBe(230);

    expect(await payments().listAcrossMerchants({ mode: null }, { limit: 10 })).toMatchObject({ items: [] });
    expect(await payments().count(test('m1'), { mode: 'test' })).toBe(77);
  });

  it('when two instances migrate at once, then each document gets its mode once', async () => {
    await insertWrittenBeforeModes<Payment>(store, PAYMENTS, [
      { id: 'p1', merchant_id: 'm_a', reference: 'r1' },
      { id: 'p2', merchant_id: 'm_a', recorded_mode: 'live', reference: 'r2' },
    ]);

    const [first, second] = await Promise.all([assignMissingModes(store, PAYMENTS, recordedOrTest), assignMissingModes(store, PAYMENTS, recordedOrTest)]);

    expect(first + second).toBe(2);
    expect(await payments().get(test('m_a'), 'p1')).toMatchObject({ version: 2 });
    expect(await payments().get(live('m_a'), 'p2')).toMatchObject({ version: 1 });
  });
});
