import { newId } from '@vaultline/core';
import type { EventData, paymentProcessingV1 } from '@vaultline/contracts';
import { MemoryDocumentStore, SqliteDocumentStore, type DocumentStore } from '@vaultline/store';

/** The consumer helper and the relay run against both in-process store adapters. */
export const storeAdapters: Array<[string, () => Promise<DocumentStore>]> = [
  ['memory store', async () => new MemoryDocumentStore()],
  ['sqlite store', async () => SqliteDocumentStore.open(':memory:')],
];

export const MERCHANT = 'merchant_a';
export const SCOPE = { merchantId: MERCHANT, mode: 'test' } as const;

export function aPayment(overrides: Partial<EventData<typeof paymentProcessingV1>> = {}): EventData<typeof paymentProcessingV1> {
  return {
    payment_id: newId(),
    status: 'processing',
    amount: { requested: 1_000 },
    currency_code: 'EUR',
    use_case: 'one_off',
    reference: null,
    credential_id: null,
    initial_payment_id: null,
    flow: null,
    failure_reason: null,
    masked_account_number: '411111******1111',
    ...overrides,
  };
}
