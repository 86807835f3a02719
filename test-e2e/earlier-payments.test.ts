import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { PROFILES, type RunningProfile } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, launchChromium, outcomeShown, payOnHostedPage, submitCard } from './support/payment-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/** A payment of the earlier interface as the merchant reads it. */
interface EarlierPayment {
  id: string;
  amount: number;
  status: 'processing' | 'authorized' | 'capturing' | 'captured' | 'failed';
  use_case: string;
  customer?: { id: string; name: string };
  action_requirement?: { type: 'use_sdk'; session_id: string };
  payment_method: { id?: string; type: 'card' | 'npr_mandate'; card?: Record<string, unknown>; npr_mandate?: Record<string, unknown> } | null;
  failure_reason?: string | null;
}

const ADYEN = { api_key: 'AQE_e2e_adyen_key_7781', merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };

type Profile = RunningProfile;

/** The embedded profile (one process) and the local one (a process per service, Redis Streams), as payments.test.ts runs them. */
const profiles = PROFILES;

/**
 * Issue 15 from the outside: the earlier payment interface through the gateway, the consumer on the
 * hosted page in Chromium, the merchant's webhooks verified with standardwebhooks.
 */
describe('the earlier payment interface through the gateway', () => {
  let browser: Browser;
  let adyen: AdyenStandIn;
  // Both profiles start together: the local one's processes load while the embedded one runs its tests.
  const started = new Map<string, Promise<Profile>>();

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: ADYEN.hmac_key });
    const env = {
      ...PAYMENT_ENV,
      FORWARD_HTTPS_ONLY: 'false',
      FORWARD_EXTRA_DESTINATIONS: `${adyen.baseUrl}/v69/payments`,
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    };
    for (const [name, start] of profiles) started.set(name, start(env, 'vaultline-earlier-'));
    // A profile that fails to start fails its own tests; the rejection is handled there.
    for (const profile of started.values()) profile.catch(() => undefined);
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await adyen?.stop();
  });

  describe.each(profiles.map(([name]) => name))('in the %s', (name) => {
    let profile: Profile;
    let receiver: WebhookReceiver;
    let secret: string;
    let api: PaymentsApi;

    beforeAll(async () => {
      [profile, receiver] = await Promise.all([started.get(name)!, startWebhookReceiver()]);
      api = new PaymentsApi(profile.merchant);
      secret = (await registerWebhookEndpoint(profile.merchant, receiver.url, [])).secret;
    }, 90_000);
    afterAll(async () => {
      await profile?.stop();
      await receiver?.stop();
    });

    const create = (json: Record<string, unknown>) => api.ok<EarlierPayment>('POST', '/payments', { json: { currency_code: 'EUR', confirm: true, ...json } });
    const newCustomer = (name: string) => api.ok<{ id: string; name: string }>('POST', '/customers', { json: { name } });
    const read = (id: string) => api.ok<EarlierPayment>('GET', '/payments/{payment_id}', { params: { payment_id: id } });
    const settled = (id: string) =>
      waitFor(
        async () => {
          const payment = await read(id);
          return payment.status === 'captured' || payment.status === 'failed' ? payment : null;
        },
        30_000,
        50,
      );

    /** The webhooks about one payment, each verified with the endpoint's secret, once `type` arrived. */
    async function webhooksOf(paymentId: string, type: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
      const verified = () =>
        receiver.received
          .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: Record<string, unknown> })
          .filter((payload) => payload.data.payment_id === paymentId);
      return waitFor(() => (verified().some((payload) => payload.type === type) ? verified() : null), 20_000, 50);
    }

    /** A first payment for the customer, paid with a card entered without a browser; resolves with its mandate's id. */
    async function mandateOf(customerId: string, type: 'recurring_payments' | 'unscheduled_payments'): Promise<string> {
      const first = await create({ amount: 1999, customer_id: customerId, store_payment_method_for: { use_case: type, mandate_reference: `e2e-${type}` } });
      await submitCard(profile.baseUrl, first.action_requirement!.session_id, SIMULATOR_CARDS.approved);
      const paid = await settled(first.id);
      expect(paid).toMatchObject({ status: 'captured', payment_method: { type: 'npr_mandate' } });
      return paid.payment_method!.id!;
    }

    it("when a consumer pays a first payment in Chromium, then a mandate exists; a merchant-initiated payment on it is captured without a session as recurring_payment, and the merchant's webhooks of both verify", async () => {
      const customer = await newCustomer('Ada Lovelace');
      const first = await create({
        amount: 1999,
        payment_method_types: ['card'],
        customer_id: customer.id,
        store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'contract-7' },
      });
      expect(first).toMatchObject({
        status: 'processing',
        use_case: 'first_payment',
        customer: { id: customer.id, name: 'Ada Lovelace' },
        payment_method: null,
        action_requirement: { type: 'use_sdk' },
      });

      const page = await payOnHostedPage(browser, profile.baseUrl, first.action_requirement!.session_id, SIMULATOR_CARDS.approved);
      await outcomeShown(page, 'Payment successful');
      await page.close();
      const paid = await settled(first.id);
      expect(paid).toMatchObject({
        status: 'captured',
        use_case: 'first_payment',
        payment_method: {
          type: 'npr_mandate',
          npr_mandate: {
            card: { masked_number: '424242******4242', expiry_month: 12, expiry_year: 2034, cardholder_name: 'Ada Lovelace' },
            customer_id: customer.id,
            reference: 'contract-7',
            type: 'recurring_payments',
          },
        },
      });
      const mandateId = paid.payment_method!.id!;
      expect(Date.parse(String(paid.payment_method!.npr_mandate!.accepted_on))).not.toBeNaN();
      expect(await api.ok('GET', '/payment-methods/{payment_method_id}', { params: { payment_method_id: mandateId } })).toEqual(paid.payment_method);

      const charge = await create({ amount: 1500, payment_method_id: mandateId });
      expect(charge).toMatchObject({
        status: 'processing',
        use_case: 'recurring_payment',
        customer: { id: customer.id },
        payment_method: { id: mandateId, type: 'npr_mandate' },
      });
      expect(charge.action_requirement).toBeUndefined();
      expect(await settled(charge.id)).toMatchObject({ status: 'captured', use_case: 'recurring_payment' });

      const firstHooks = await webhooksOf(first.id, 'payment.captured');
      expect(firstHooks.find((hook) => hook.type === 'payment.captured')!.data).toMatchObject({
        use_case: 'first_payment',
        interface: 'earlier',
        customer_id: customer.id,
        payment_method_id: mandateId,
      });
      const chargeHooks = await webhooksOf(charge.id, 'payment.captured');
      expect(chargeHooks.map((hook) => hook.type)).toEqual(expect.arrayContaining(['payment.processing', 'payment.captured']));
      expect(chargeHooks.find((hook) => hook.type === 'payment.captured')!.data).toMatchObject({
        status: 'captured',
        use_case: 'recurring_payment',
        customer_id: customer.id,
        payment_method_id: mandateId,
        amount: { requested: 1500, captured: 1500 },
      });
    }, 120_000);

    it('when the consumer confirms a stored card in Chromium (COF payment), then the page shows the card masked, the payment is captured as cof_payment and its card is the stored one', async () => {
      const stored = await create({ amount: 999, store_payment_method_for: { use_case: 'cof_payments' } });
      await submitCard(profile.baseUrl, stored.action_requirement!.session_id, SIMULATOR_CARDS.approved);
      const card = (await settled(stored.id)).payment_method!;
      expect(card).toMatchObject({ id: expect.any(String), type: 'card' });

      const cof = await create({ amount: 700, payment_method_id: card.id, payment_method_types: ['card'] });
      expect(cof).toMatchObject({ status: 'processing', use_case: 'cof_payment', payment_method: card, action_requirement: { type: 'use_sdk' } });
      const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
      await page.goto(`${profile.baseUrl}/checkout/${cof.action_requirement!.session_id}`);
      const confirm = page.getByRole('button', { name: /^Pay .*\d/ });
      await confirm.waitFor({ timeout: 30_000 });
      await expect(page.getByText('Visa •••• 4242, expires', { exact: false }).isVisible()).resolves.toBe(true);
      // The simulator needs no security code: none is asked for, and the card form is not shown.
      await expect(page.getByLabel('Card number').isVisible()).resolves.toBe(false);
      await confirm.click();
      await outcomeShown(page, 'Payment successful');
      await page.close();
      expect(await settled(cof.id)).toMatchObject({ status: 'captured', use_case: 'cof_payment', payment_method: card });
    }, 120_000);

    it('when an unscheduled mandate is charged on a flow of a simulator account without explicit unscheduled support, then it is charged as recurring: recurring_payment in the answer, the transactions and the webhooks', async () => {
      const account = await profile.merchant.call('POST', '/processor-accounts', {
        json: { processor: 'simulator', name: 'recurring only', settings: { explicit_unscheduled: false } },
      });
      expect(account.status).toBe(201);
      const accountId = account.json<{ id: string }>().id;
      const steps = ['authorization', 'capture'].map((kind) => ({ kind, processor: accountId }));
      expect((await profile.merchant.call('POST', '/flows', { json: { name: 'e2e-recurring-only', capture_mode: 'automatic', steps } })).status).toBe(201);
      const customer = await newCustomer('Grace Hopper');
      const mandateId = await mandateOf(customer.id, 'unscheduled_payments');
      expect(
        (
          await profile.merchant.call('PUT', '/flow-matrix', {
            json: { rules: [{ name: 'mit', when: { use_case: ['SUBSEQUENT_UNSCHEDULED'] }, flow: 'e2e-recurring-only' }] },
          })
        ).status,
      ).toBe(200);

      const charge = await create({ amount: 500, payment_method_id: mandateId });
      expect(charge).toMatchObject({ use_case: 'recurring_payment', payment_method: { npr_mandate: { type: 'unscheduled_payments' } } });
      expect(await settled(charge.id)).toMatchObject({ status: 'captured', use_case: 'recurring_payment' });
      expect((await api.transactions(charge.id)).map((t) => [t.processor, t.use_case])).toEqual([
        [accountId, 'recurring_payment'],
        [accountId, 'recurring_payment'],
      ]);
      const hooks = await webhooksOf(charge.id, 'payment.captured');
      expect(hooks.map((hook) => hook.data.use_case)).toEqual(hooks.map(() => 'recurring_payment'));
      await profile.merchant.call('PUT', '/flow-matrix', { json: { rules: [] } });
    }, 120_000);

    it("when a COF payment is routed to Adyen, then the hosted page asks for the stored card's security code in Chromium, and Adyen receives the stored card with that code through the forwarder, flagged ContAuth with CardOnFile", async () => {
      const stored = await create({ amount: 999, store_payment_method_for: { use_case: 'cof_payments' } });
      await submitCard(profile.baseUrl, stored.action_requirement!.session_id, ADYEN_TEST_CARDS.approved);
      const card = (await settled(stored.id)).payment_method!;
      const account = await profile.merchant.call('POST', '/processor-accounts', {
        json: { processor: 'adyen', name: 'adyen', credentials: ADYEN, settings: { base_url: adyen.baseUrl } },
      });
      const accountId = account.json<{ id: string }>().id;
      // Adyen notifies the account's endpoint (its CAPTURE confirms the automatic capture), through the gateway.
      adyen.webhookUrl = `${profile.baseUrl}/processor-notifications/adyen/${accountId}`;
      const steps = ['authorization', 'capture'].map((kind) => ({ kind, processor: accountId }));
      expect((await profile.merchant.call('POST', '/flows', { json: { name: 'e2e-adyen-cof', capture_mode: 'automatic', steps } })).status).toBe(201);
      await profile.merchant.call('PUT', '/flow-matrix', { json: { rules: [{ name: 'cof', when: { use_case: ['ONE_OFF'] }, flow: 'e2e-adyen-cof' }] } });

      const cof = await create({ amount: 700, payment_method_id: card.id });
      const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
      await page.goto(`${profile.baseUrl}/checkout/${cof.action_requirement!.session_id}`);
      await page.getByRole('button', { name: /^Pay .*\d/ }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: /^Pay .*\d/ }).click();
      await expect(page.getByText('Enter the 3-digit security code.').isVisible()).resolves.toBe(true);
      await page.getByLabel('CVC of the saved card').fill('737');
      await page.getByRole('button', { name: /^Pay .*\d/ }).click();
      await outcomeShown(page, 'Payment successful');
      await page.close();
      expect(await settled(cof.id)).toMatchObject({ status: 'captured', use_case: 'cof_payment', payment_method: card });
      const sent = adyen.payments.find((payment) => payment.body.reference === cof.id)!;
      // A returning shopper paying with details stored earlier: ContAuth + CardOnFile, per Adyen's tokenization rules.
      expect(sent.body).toMatchObject({
        amount: { value: 700, currency: 'EUR' },
        paymentMethod: { number: ADYEN_TEST_CARDS.approved, cvc: '737' },
        shopperInteraction: 'ContAuth',
        recurringProcessingModel: 'CardOnFile',
      });
      await profile.merchant.call('PUT', '/flow-matrix', { json: { rules: [] } });
    }, 120_000);
  });
});
