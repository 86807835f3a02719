import type { IdempotentEffect } from './idempotency';
import type { MerchantApi } from './merchant-api';

/** How many items of a merchant's list (newest 100) satisfy `match`. */
async function countIn(merchant: MerchantApi, list: string, match: (item: Record<string, unknown>) => boolean): Promise<number> {
  const page = (await merchant.call('GET', `${list}?limit=100`)).json<{ data: Array<Record<string, unknown>> }>();
  return page.data.filter(match).length;
}

/** The earlier payment interface's POSTs (issue 15): a retried request creates one customer, one payment. */
export const earlierPaymentEffects: Array<IdempotentEffect<unknown>> = [
  {
    name: 'POST /customers (one customer)',
    send: (_context, merchant, key) => merchant.call('POST', '/customers', { json: { name: `idem-${key}` }, headers: { 'Idempotency-Key': key } }),
    count: (_context, merchant, key) => countIn(merchant, '/customers', (customer) => customer.name === `idem-${key}`),
  },
  {
    name: 'POST /payments, earlier interface (one payment)',
    send: (_context, merchant, key) =>
      merchant.call('POST', '/payments', {
        json: { amount: 1999, currency_code: 'EUR', confirm: true, reference: `idem-${key}` },
        headers: { 'Idempotency-Key': key },
      }),
    count: (_context, merchant, key) => countIn(merchant, '/payments', (payment) => payment.reference === `idem-${key}`),
  },
];
