import { PROCESSOR_MANIFESTS } from '@vaultline/contracts';
import { processorPlugins } from '../../src/processors/registry';
import { MERCHANT, oneOff, startOrchestrator, type Harness } from '../support/orchestrator-harness';
import { startRealForwarder, type RealForwarder } from '../support/real-forwarder';
import { acmePay, startAcmeStandIn, type AcmeStandIn } from './acme-pay';

const credentials = { api_key: 'acme_test_fourth_key_9931', webhook_secret: 'acme_whsec_fourth0123456789abcdefghijk' };
const CARD = '4111111111111111';

/**
 * Acme Pay is its folder (test/fourth-processor: plugin, manifest.json, stand-in) and one line of a registry
 * (the test's own: the registry's plugins and acme). The card goes the real way: stored in the real vault,
 * revealed to the real forwarder, which fills it into the fields Acme Pay's manifest declares and passes the
 * headers it forwards; the orchestrator reaches the forwarder as the embedded profile hands it over.
 */
describe('a fourth processor registered in a test folder, with no engine change, through the real forwarder', () => {
  let standIn: AcmeStandIn;
  let forwarder: RealForwarder;
  let h: Harness;

  beforeAll(async () => {
    standIn = await startAcmeStandIn(credentials);
    forwarder = await startRealForwarder({ processors: [...PROCESSOR_MANIFESTS, acmePay.manifest], extraDestinations: [`${standIn.baseUrl}/v1/charges`] });
    h = await startOrchestrator({
      plugins: { ...processorPlugins, acme: acmePay },
      inProcessApis: { forwarder: forwarder.api },
      env: { FORWARD_EXTRA_DESTINATIONS: `${standIn.baseUrl}/v1/charges`, PROCESSOR_ALLOW_PRIVATE_URLS: 'true' },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await forwarder?.stop();
    await standIn?.stop();
  });

  it('when an account at it is created, a flow routes to it, a consumer pays and its signed capture webhook arrives on the one notification route, then the payment is captured', async () => {
    expect(Object.keys(processorPlugins)).not.toContain('acme');

    const account = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor: 'acme',
      name: 'Acme EU',
      credentials,
      settings: { base_url: standIn.baseUrl },
    });
    expect(account).toMatchObject({ status: 201, body: { processor: 'acme', credentials: { hint: '…9931' } } });
    const accountId = account.body.id as string;
    expect(
      (await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'acme', name: 'bad', credentials: { ...credentials, api_key: 'sk_wrong' } })).body,
    ).toMatchObject({ code: 'invalid_credentials', field: 'credentials.api_key' });

    expect(
      (
        await h.call(MERCHANT, 'POST', '/flows', {
          name: 'acme-auto',
          capture_mode: 'automatic',
          steps: [
            { kind: 'authorization', processor: accountId },
            { kind: 'capture', processor: accountId },
          ],
        })
      ).status,
    ).toBe(201);
    expect((await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'acme-auto', rules: [] })).status).toBe(200);

    const tokenId = await forwarder.tokenize({ number: CARD, exp_month: 3, exp_year: 2030, cvc: '123' });
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    await h.submitCard(created.body, '411111******1111', { tokenId });
    await h.settle();
    const payment = (await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body;
    expect(payment).toMatchObject({ status: 'processing', flow: 'acme-auto', amount: { authorized: 1250 } });
    // The vault's card, filled in by the forwarder in Acme Pay's card fields, with the headers its manifest forwards.
    expect(standIn.charges.at(-1)!.body).toMatchObject({ reference: payment.id, card: { pan: CARD, exp_month: '03', exp_year: '2030' } });
    expect(standIn.charges.at(-1)!.headers).toMatchObject({ authorization: `Bearer ${credentials.api_key}`, 'idempotency-key': `${payment.id}:authorization` });

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
