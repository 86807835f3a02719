// A TypeScript user of the published package (NodeNext resolution, dist/ types): the calls are typed by path.
import { Vaultline, VaultlineError, type MerchantComponents } from '@vaultline/node';

const vaultline = new Vaultline('sk_test_consumer');

export async function statusOf(paymentId: string): Promise<MerchantComponents['schemas']['AnyPayment']['status']> {
  try {
    return (await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } })).status;
  } catch (error) {
    if (error instanceof VaultlineError && error.code === 'payment_not_found') return 'failed';
    throw error;
  }
}

export async function refusedByTheTypes(): Promise<void> {
  // @ts-expect-error a path the API does not have
  await vaultline.get('/no-such-route');
  // @ts-expect-error a required body field missing
  await vaultline.post('/payments/one-off', { body: { currency_code: 'EUR', source: { type: 'vaultline' } } });
}
