import { newId, type Mode } from '@vaultline/core';
import { assignMissingModes, relocateRecordedModes, SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { Payment } from '../domain/payment/payment';
import {
  CREDENTIALS,
  CUSTOMERS,
  FLOW_MATRICES,
  FLOWS,
  PAYMENT_METHODS,
  PAYMENT_REQUESTS,
  PAYMENT_SCHEDULE,
  PAYMENTS,
  PROCESSOR_ACCOUNTS,
  PROCESSOR_NOTIFICATIONS,
  TRANSACTIONS,
} from './collections';
import type { ScheduleEntry } from './payment.repository';

type Doc = StoredDocument & Record<string, unknown>;
const PAGE = 200;

/**
 * Start-up migration of an orchestrator store written before test and live were kept apart (issue #23).
 * What is known decides the mode; everything else becomes test:
 * - payments recorded the key's mode: live ones move to the live partition, unrecorded ones are test;
 * - a payment's transactions, request records, stored credential and (earlier interface) payment method
 *   and customer take the payment's mode;
 * - a processor account named by a live payment's flow is live (its notifications follow it);
 * - a merchant with live payments gets a live copy of its flows and flow matrix, so its live routing
 *   goes on as before; the originals stay its test configuration.
 * Idempotent: each step only touches documents still without a mode (or, for payments, still in the test
 * partition), and copies are made only when the merchant has no live flow or matrix yet. Two instances
 * starting at once may both copy a merchant's flows: the unique name per merchant and mode lets one win.
 */
export async function migrateToModes(store: DocumentStore): Promise<void> {
  await relocateRecordedModes(store, PAYMENTS);
  await assignMissingModes<Doc>(store, PAYMENTS, () => 'test');

  const live = await liveFacts(store);
  const modeOf = (livePart: boolean): Mode => (livePart ? 'live' : 'test');
  await assignMissingModes<Doc>(store, TRANSACTIONS, (doc) => modeOf(live.payments.has(String(doc.payment_id))));
  await assignMissingModes<Doc>(store, PAYMENT_REQUESTS, (doc) => modeOf(live.payments.has(String(doc.payment_id))));
  await assignMissingModes<Doc>(store, CREDENTIALS, (doc) => modeOf(live.credentials.has(doc.id)));
  await assignMissingModes<Doc>(store, PAYMENT_METHODS, (doc) => modeOf(live.paymentMethods.has(doc.id) || live.credentials.has(String(doc.credential_id))));
  await assignMissingModes<Doc>(store, CUSTOMERS, (doc) => modeOf(live.customers.has(doc.id)));
  await assignMissingModes<Doc>(store, PROCESSOR_ACCOUNTS, (doc) => modeOf(live.accounts.has(doc.id)));
  await assignMissingModes<Doc>(store, PROCESSOR_NOTIFICATIONS, (doc) => modeOf(live.accounts.has(String(doc.account_id))));
  for (const merchantId of live.merchants) await copyRoutingToLive(store, merchantId);
  await assignMissingModes<Doc>(store, FLOWS, () => 'test');
  await assignMissingModes<Doc>(store, FLOW_MATRICES, () => 'test');
  await realignSchedule(store);
}

interface LiveFacts {
  merchants: Set<string>;
  payments: Set<string>;
  credentials: Set<string>;
  paymentMethods: Set<string>;
  customers: Set<string>;
  accounts: Set<string>;
}

/** What the live payments name: read once, across merchants. */
async function liveFacts(store: DocumentStore): Promise<LiveFacts> {
  const facts: LiveFacts = {
    merchants: new Set(),
    payments: new Set(),
    credentials: new Set(),
    paymentMethods: new Set(),
    customers: new Set(),
    accounts: new Set(),
  };
  await eachAcrossMerchants<Payment & { version: number }>(store, PAYMENTS, { mode: 'live' }, (payment) => {
    facts.merchants.add(payment.merchant_id);
    facts.payments.add(payment.id);
    if (payment.credential_id) facts.credentials.add(payment.credential_id);
    const earlier = payment.earlier;
    if (earlier?.customer) facts.customers.add(earlier.customer.id);
    if (earlier?.store) facts.paymentMethods.add(earlier.store.payment_method_id);
    for (const step of payment.decision?.flow.steps ?? []) for (const processor of [step.processor, ...step.fallback]) facts.accounts.add(processor);
  });
  return facts;
}

/** A live copy of a merchant's flows and flow matrix versions (new ids, same names), unless it has live ones already. */
async function copyRoutingToLive(store: DocumentStore, merchantId: string): Promise<void> {
  const live = { merchantId, mode: 'live' as const };
  for (const collection of [FLOWS, FLOW_MATRICES]) {
    if ((await store.collection<Doc>(collection).count(live, {})) > 0) continue;
    const originals: Doc[] = [];
    await eachAcrossMerchants<Doc>(store, collection, { merchant_id: merchantId }, (doc) => void originals.push(doc));
    if (originals.length === 0) continue;
    await store.transaction((uow) => {
      for (const { version: _version, ...doc } of originals) uow.insert<Doc>(collection, { ...doc, id: newId(), mode: 'live' });
    });
  }
}

/**
 * The worker's schedule entry of an unfinished payment is written in lockstep with it (same version) and
 * carries its owner's mode. Moving a payment (version 1 again) or giving it its mode (one more version)
 * breaks the lockstep: each entry is brought back to its payment's version and mode.
 */
async function realignSchedule(store: DocumentStore): Promise<void> {
  const entries: ScheduleEntry[] = [];
  await eachAcrossMerchants<ScheduleEntry>(store, PAYMENT_SCHEDULE, {}, (entry) => void entries.push(entry));
  const payments = store.collection<Payment>(PAYMENTS);
  for (const entry of entries) {
    const payment = await payments.getGlobal(entry.id);
    if (!payment || (entry.version === payment.version && entry.owner_mode === payment.mode)) continue;
    const aligned = { ...entry, owner_mode: payment.mode };
    await store.transaction((uow) => {
      // Written anew (version 1), then brought up to the payment's version one write at a time.
      const { version: _version, ...fields } = aligned;
      uow.delete(PAYMENT_SCHEDULE, SYSTEM_SCOPE, entry.id, entry.version);
      let current = uow.insert<ScheduleEntry>(PAYMENT_SCHEDULE, fields);
      while (current.version < payment.version) current = uow.update<ScheduleEntry>(PAYMENT_SCHEDULE, current);
    });
  }
}

async function eachAcrossMerchants<T extends StoredDocument>(
  store: DocumentStore,
  collection: string,
  where: Record<string, string | null>,
  visit: (doc: T) => void,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const page = await store.collection<T>(collection).listAcrossMerchants(where, { limit: PAGE, ...(after ? { after } : {}) });
    page.items.forEach(visit);
    if (!page.has_more || !page.next_cursor) return;
    after = page.next_cursor;
  }
}
