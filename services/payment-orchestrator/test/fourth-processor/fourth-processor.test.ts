import { processorPlugins } from '../../src/processors/registry';
import { placeholderTransport } from '../support/placeholder-transport';
import { MERCHANT, startOrchestrator, type Harness } from '../support/orchestrator-harness';
import { acmePay, startAcmeStandIn, type AcmeStandIn } from './acme-pay';

const credentials = { api_key: 'acme_test_fourth_key_9931', webhook_secret: 'acme_whsec_fourth0123456789abcdefghijk' };
const CARD = '4111111111111111';

describe('a fourth processor registered in a test folder, with no engine change', () => {
  let standIn: AcmeStandIn;
  let h: Harness;

  beforeAll(async () => {
    standIn = await startAcmeStandIn(credentials);
    h = await startOrchestrator({
      plugins: { ...processorPlugins, acme: acmePay },
      transport: placeholderTransport({ '*': { number: CARD, expiry_month: 3, expiry_year: 2030, security_code: '123' } }),
      env: { FORWARD_EXTRA_DESTINATIONS: `${standIn.baseUrl}/v1/charges`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await standIn?.stop();
  });

  it('when an account at it is created, a flow routes to it, a consumer pays and its signed capture webhook arrives on the one notification route, then the payment is captured', async () => {
    expect(Object.keys(processorPlugins)).not.toContain('acme');

    const account = await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'acme', name: 'Acme EU', credentials, settings: { base_url: standIn.baseUrl } });
    expect(account).toMatchObject({ status: 201, body: { processor: 'acme', credentials: { hint: '…9931' } } });
    const accountId = account.body.id as string;
    expect((await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'acme', name: 'bad', credentials: { ...credentials, api_key: 'sk_wrong' } })).body).toMatchObject({ code: 'invalid_credentials', field: 'credentials.api_key' });

    expect((await h.call(MERCHANT, 'POST', '/flows', { name: 'acme-auto', capture_mode: 'automatic', steps: [{ kind: 'authorization', processor: accountId }, { kind: 'capture', processor: accountId }] })).status).toBe(201);
    expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'acme-auto', rules: [] })).status).toBe(200);

    const payment = await h.payOneOff(MERCHANT, '411111******1111');
    expect(payment).toMatchObject({ status: 'processing', flow: 'acme-auto', amount: { authorized: 1250 } });
    expect(standIn.charges.at(-1)!.body).toMatchObject({ reference: payment.id, card: { pan: CARD, exp_month: '03', exp_year: '2030' } });

    const webhook = standIn.webhooks.at(-1)!;
    const forged = await h.postPublic(`/processor-notifications/acme/${accountId}`, webhook.rawBody, { 'acme-signature': '0'.repeat(64) });
    expect(forged.status).toBe(401);
    const delivered = await h.postPublic(`/processor-notifications/acme/${accountId}`, webhook.rawBody, { 'acme-signature': webhook.signature });
    expect([delivered.status, delivered.text]).toEqual([200, '{"ok":true}']);
    await h.settle();

    expect((await h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body).toMatchObject({ status: 'captured', amount: { captured: 1250 } });
    const transactions = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body;
    expect(transactions.data.map((t: { processor: string; kind: string; status: string }) => [t.processor, t.kind, t.status])).toEqual([
      [accountId, 'authorization', 'succeeded'],
      [accountId, 'capture', 'succeeded'],
    ]);
  });
});
