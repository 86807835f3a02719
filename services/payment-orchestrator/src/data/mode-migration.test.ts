import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import { forEachStoreAdapter, insertWrittenBeforeModes } from '@vaultline/store/testing';
import { CREDENTIALS, FLOW_MATRICES, FLOWS, orchestratorCollections, PAYMENT_SCHEDULE, PAYMENTS, PROCESSOR_ACCOUNTS, TRANSACTIONS } from './collections';
import { migrateToModes } from './mode-migration';
import { StorePaymentRepository } from './payment.repository';
import type { Payment } from '../domain/payment/payment';

type Doc = StoredDocument & Record<string, unknown>;
const M = 'merchant_old';
const TEST = { merchantId: M, mode: 'test' } as const;
const LIVE = { merchantId: M, mode: 'live' } as const;
const flowOn = (account: string) => ({
  name: 'cards',
  capture_mode: 'manual',
  built_in: false,
  created_at: null,
  steps: [{ kind: 'authorization', processor: account, on_failure: 'stop', fallback: [] }],
});

/** A data directory as the version before modes left it: a live and a test payment, what they name, routing. */
async function storeBeforeModes(store: DocumentStore): Promise<void> {
  for (const spec of orchestratorCollections) await store.register(spec);
  const payment = (id: string, mode: 'test' | 'live' | undefined, account: string) => ({
    id,
    merchant_id: M,
    ...(mode ? { mode } : {}),
    status: 'authorized',
    credential_id: mode === 'live' ? 'cred_live' : null,
    decision: { flow: flowOn(account), matrix_version: 1, rule: null },
    next_run_at: '2026-11-20T00:00:00.000Z',
  });
  // Payments recorded their key's mode (a live one included) but sat in the merchant's one partition.
  await insertWrittenBeforeModes<Doc>(store, PAYMENTS, [
    payment('pay_live', 'live', 'acct_live'),
    payment('pay_test', 'test', 'acct_test'),
    payment('pay_older', undefined, 'acct_test'),
  ]);
  await insertWrittenBeforeModes<Doc>(store, TRANSACTIONS, [
    { id: 'tx_live', merchant_id: M, payment_id: 'pay_live', sequence: 0 },
    { id: 'tx_test', merchant_id: M, payment_id: 'pay_test', sequence: 0 },
  ]);
  await insertWrittenBeforeModes<Doc>(store, CREDENTIALS, [{ id: 'cred_live', merchant_id: M, initial_payment_id: 'pay_live' }]);
  await insertWrittenBeforeModes<Doc>(store, PROCESSOR_ACCOUNTS, [
    { id: 'acct_live', merchant_id: M, processor: 'adyen', name: 'live account' },
    { id: 'acct_test', merchant_id: M, processor: 'adyen', name: 'test account' },
  ]);
  await insertWrittenBeforeModes<Doc>(store, FLOWS, [{ id: 'flow_1', merchant_id: M, name: 'cards', flow: flowOn('acct_live') }]);
  await insertWrittenBeforeModes<Doc>(store, FLOW_MATRICES, [
    { id: 'matrix_1', merchant_id: M, matrix_version: 1, matrix: { version: 1, default_flow: 'cards', rules: [] } },
  ]);
  // The worker's entries, in lockstep with their payments (version 1 each).
  await insertWrittenBeforeModes<Doc>(
    store,
    PAYMENT_SCHEDULE,
    ['pay_live', 'pay_test', 'pay_older'].map((id) => ({ id, merchant_id: SYSTEM_SCOPE, owner_merchant_id: M, due_at: '2026-11-20T00:00:00.000Z' })),
  );
}

const idsIn = async (store: DocumentStore, collection: string, scope: typeof TEST | typeof LIVE) =>
  (await store.collection<Doc>(collection).list(scope, {}, { limit: 50 })).items.map((doc) => doc.id).sort();

forEachStoreAdapter('orchestrator start-up migration to test and live', (open) => {
  it('when an old store is migrated, then live payments and what they name are live, the rest test, and live routing goes on as before', async () => {
    const store = await open();
    await storeBeforeModes(store);

    await migrateToModes(store);

    expect(await idsIn(store, PAYMENTS, LIVE)).toEqual(['pay_live']);
    expect(await idsIn(store, PAYMENTS, TEST)).toEqual(['pay_older', 'pay_test']);
    expect(await idsIn(store, TRANSACTIONS, LIVE)).toEqual(['tx_live']);
    expect(await idsIn(store, TRANSACTIONS, TEST)).toEqual(['tx_test']);
    expect(await idsIn(store, CREDENTIALS, LIVE)).toEqual(['cred_live']);
    expect(await idsIn(store, PROCESSOR_ACCOUNTS, LIVE)).toEqual(['acct_live']);
    expect(await idsIn(store, PROCESSOR_ACCOUNTS, TEST)).toEqual(['acct_test']);
    // The merchant's routing exists in both modes: the original stays test, a copy serves live.
    expect((await store.collection<Doc>(FLOWS).findOne(LIVE, { name: 'cards' }))?.mode).toBe('live');
    expect((await store.collection<Doc>(FLOWS).findOne(TEST, { name: 'cards' }))?.id).toBe('flow_1');
    expect(await store.collection<Doc>(FLOW_MATRICES).count(LIVE, {})).toBe(1);
  });

  it('when a migrated payment moves on, then its schedule entry is still in lockstep with it (the worker keeps finding it)', async () => {
    const store = await open();
    await storeBeforeModes(store);
    await migrateToModes(store);
    const payments = new StorePaymentRepository(store);

    for (const scope of [LIVE, TEST]) {
      for (const id of scope === LIVE ? ['pay_live'] : ['pay_test', 'pay_older']) {
        const payment = (await payments.get(scope, id))!;
        await store.transaction((uow) => payments.update(uow, { ...payment, next_run_at: '2026-11-21T00:00:00.000Z' } as Payment));
      }
    }

    const due = await payments.listDue(new Date('2026-11-22T00:00:00.000Z'), 10);
    expect(due.map((entry) => [entry.paymentId, entry.scope.mode]).sort()).toEqual([
      ['pay_live', 'live'],
      ['pay_older', 'test'],
      ['pay_test', 'test'],
    ]);
  });

  it('when the migration runs again, then nothing changes (no second copy of the routing, nothing moved twice)', async () => {
    const store = await open();
    await storeBeforeModes(store);
    await migrateToModes(store);
    const live = await idsIn(store, FLOWS, LIVE);

    await migrateToModes(store);

    expect(await idsIn(store, FLOWS, LIVE)).toEqual(live);
    expect(await idsIn(store, PAYMENTS, LIVE)).toEqual(['pay_live']);
    expect((await store.collection<Doc>(PAYMENTS).get(LIVE, 'pay_live'))?.version).toBe(1);
  });
});
