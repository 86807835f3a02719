import { waitFor } from '@vaultline/core';
import { Webhook } from 'standardwebhooks';
import {
  enableForwardingTo,
  importEnv,
  importWhenStopped,
  registerWebhookEndpoint,
  startImport,
  startImportPlatform,
  type ImportJobView,
  type ImportPlatform,
} from './support/import-scenario';
import { startSystem, type RunningSystem, type TokenView } from './support/merchant-api';
import { signatureHeaders, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './support/webhook-receiver';

/**
 * A whole automatic import through the real gateway, importer, vault and notifier of the embedded
 * profile: the importer reads a provider_a account (the dev simulator, 3 customers × 4 cards), the
 * platform forwards each card to /cde-import, the vault stores tokens keyed by the payment-method
 * id, and the merchant hears import.completed on its Standard Webhooks endpoint.
 */
describe('automatic import in the embedded profile: a provider_a account becomes tokens and an import.completed webhook', () => {
  const CUSTOMERS = 3;
  const CARDS_PER_CUSTOMER = 4;
  const TOTAL = CUSTOMERS * CARDS_PER_CUSTOMER;
  let platform: ImportPlatform;
  let receiver: WebhookReceiver;
  let running: RunningSystem;
  let endpoint: { id: string; secret: string };
  let firstJob: ImportJobView;
  const tokensAfterFirstImport = new Map<string, TokenView>();

  beforeAll(async () => {
    platform = await startImportPlatform(CUSTOMERS, CARDS_PER_CUSTOMER);
    receiver = await startWebhookReceiver();
    running = await startSystem(importEnv(platform), 'vaultline-import-');
    enableForwardingTo(platform, running);
    endpoint = await registerWebhookEndpoint(running.merchant, receiver.url, ['import.completed', 'import.failed']);
    const created = await startImport(running.merchant);
    firstJob = await importWhenStopped(running.merchant, created.id);
  });
  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
    await platform?.simulator.stop();
  });

  const masked = (number: string) => `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`;

  async function completedWebhookOf(importId: string): Promise<ReceivedWebhook> {
    return waitFor(
      () =>
        receiver.received.find((webhook) => {
          const payload = JSON.parse(webhook.body) as { type?: string; data?: { import_id?: string } };
          return payload.type === 'import.completed' && payload.data?.import_id === importId;
        }),
      10_000,
      50,
    );
  }

  it('when a merchant imports a whole provider_a account, then the job finishes with every card payment method imported', () => {
    expect(firstJob).toMatchObject({
      object: 'token_import',
      livemode: false,
      provider: 'provider_a',
      state: 'finished',
      counts: { total: TOTAL, imported: TOTAL, updated: 0, failed: 0, imported_without_security_code: 0 },
      failure_reason: null,
      failure_detail: null,
      failures: [],
    });
    expect(firstJob.finished_at).not.toBeNull();
    expect(platform.simulator.stats.unauthorized).toBe(0);
    expect(platform.paymentMethods.map((pm) => platform.simulator.stats.forwardsByPaymentMethod.get(pm))).toEqual(Array(TOTAL).fill(1));
  });

  it('when the import has finished, then GET /tokens?business_key=<payment-method id> finds each imported token with the right masked number and expiry', async () => {
    for (const paymentMethod of platform.paymentMethods) {
      const card = platform.simulator.cardFor(paymentMethod)!;

      const tokens = await running.merchant.tokensByBusinessKey(paymentMethod);

      expect(tokens).toHaveLength(1);
      expect(tokens[0]).toMatchObject({
        business_key: paymentMethod,
        masked_account_number: masked(card.number),
        expiry_month: card.exp_month,
        expiry_year: card.exp_year,
      });
      tokensAfterFirstImport.set(paymentMethod, tokens[0]!);
    }
  });

  it('when the import completes, then the merchant’s endpoint receives import.completed with the counts, verified with the standardwebhooks package', async () => {
    const webhook = await completedWebhookOf(firstJob.id);

    const payload = new Webhook(endpoint.secret).verify(webhook.body, signatureHeaders(webhook)) as {
      type: string;
      timestamp: string;
      livemode: boolean;
      data: Record<string, unknown>;
    };

    expect(payload).toMatchObject({
      type: 'import.completed',
      livemode: false,
      data: { import_id: firstJob.id, provider: 'provider_a', state: 'finished', counts: { total: TOTAL, imported: TOTAL, updated: 0, failed: 0 } },
    });
    // The signature really binds the body: a changed byte fails verification.
    expect(() =>
      new Webhook(endpoint.secret).verify(webhook.body.replace(`"imported":${TOTAL}`, `"imported":${TOTAL - 1}`), signatureHeaders(webhook)),
    ).toThrow();
    expect(receiver.received.filter((w) => JSON.parse(w.body).type === 'import.failed')).toHaveLength(0);
  });

  it('when the same account is imported a second time, then every token is updated in place instead of duplicated', async () => {
    expect(tokensAfterFirstImport.size).toBe(TOTAL);

    const created = await startImport(running.merchant);
    const second = await importWhenStopped(running.merchant, created.id);

    expect(second.id).not.toBe(firstJob.id);
    // The platform sent each security code with the first import's forward: this time none comes along.
    expect(second).toMatchObject({
      state: 'finished',
      counts: { total: TOTAL, imported: 0, updated: TOTAL, failed: 0, imported_without_security_code: TOTAL },
    });
    for (const paymentMethod of platform.paymentMethods) {
      const tokens = await running.merchant.tokensByBusinessKey(paymentMethod);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.id).toBe(tokensAfterFirstImport.get(paymentMethod)!.id);
    }
    const all = await running.merchant.call('GET', '/tokens?limit=100');
    expect(all.json<{ data: unknown[] }>().data).toHaveLength(TOTAL);
    const webhook = await completedWebhookOf(second.id);
    expect(new Webhook(endpoint.secret).verify(webhook.body, signatureHeaders(webhook))).toMatchObject({
      type: 'import.completed',
      data: { import_id: second.id, counts: { imported: 0, updated: TOTAL } },
    });
  });
});
