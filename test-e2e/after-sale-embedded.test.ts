import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import {
  CHECKOUT_TEST_CARDS,
  startCheckoutStandIn,
  type CheckoutStandIn,
} from '../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';
import { registerWebhookEndpoint } from './support/import-scenario';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, launchChromium, outcomeShown, sessionOf, submitCard, type PaymentView } from './support/payment-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const ADYEN = { api_key: 'AQE_e2e_after_sale_4410', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY };
const CHECKOUT = { secret_key: 'sk_sbox_e2e_after_sale', processing_channel_id: 'pc_e2eafter', webhook_secret: 'whsec_e2e_after0123456789abcdefghijklm' };
/** Captured normally by the simulator; every refund of it fails. */
const REFUND_FAILS = '4000000000005126';

interface RefundView {
  id: string;
  object: 'refund';
  payment_id: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason: string | null;
  livemode: boolean;
}

/**
 * Issue 24 from the outside, embedded profile: cancels and refunds through the gateway on the simulator
 * and on the Adyen and Checkout.com stand-ins (their notifications delivered through the gateway's
 * public route), with the merchant's webhooks verified by the standardwebhooks library, and the hosted
 * page of a payment canceled before its card (Chromium).
 */
describe('after the sale: cancel and refunds through the gateway', () => {
  let adyen: AdyenStandIn;
  let checkout: CheckoutStandIn;
  let running: RunningSystem;
  let api: PaymentsApi;
  let receiver: WebhookReceiver;
  let secret: string;
  let browser: Browser;

  beforeAll(async () => {
    adyen = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: HMAC_KEY });
    checkout = await startCheckoutStandIn({
      secretKey: CHECKOUT.secret_key,
      processingChannelId: CHECKOUT.processing_channel_id,
      webhookSecret: CHECKOUT.webhook_secret,
    });
    [running, receiver, browser] = await Promise.all([
      startSystem(
        {
          ...PAYMENT_ENV,
          FORWARD_HTTPS_ONLY: 'false',
          FORWARD_EXTRA_DESTINATIONS: [`${adyen.baseUrl}/v69/payments`, `${checkout.baseUrl}/payments`].join(','),
          PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
        },
        'vaultline-after-sale-',
      ),
      startWebhookReceiver(),
      launchChromium(),
    ]);
    api = new PaymentsApi(running.merchant);
    secret = (await registerWebhookEndpoint(running.merchant, receiver.url, [])).secret;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await receiver?.stop();
    await Promise.all([adyen?.stop(), checkout?.stop()]);
  });

  /** The verified webhooks whose data names this payment (refunds name it as payment_id too). */
  function webhooksOf(paymentId: string): Array<{ type: string; data: Record<string, unknown> }> {
    return receiver.received
      .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: Record<string, unknown> })
      .filter((payload) => payload.data.payment_id === paymentId);
  }
  const webhookTypes = (paymentId: string, wanted: string[]) =>
    waitFor(
      () => {
        const seen = webhooksOf(paymentId).map((payload) => payload.type);
        return wanted.every((type) => seen.includes(type)) ? seen : null;
      },
      20_000,
      50,
    );

  async function pay(card: string, reference: string, amount = 1250): Promise<PaymentView> {
    const created = await api.ok('POST', '/payments/one-off', { json: { amount, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
    await submitCard(running.system.baseUrl, sessionOf(created), card);
    return created;
  }
  const refund = (paymentId: string, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.call('POST', '/payments/{payment_id}/refunds', { params: { payment_id: paymentId }, json, headers });
  const refundUntil = (id: string, status: RefundView['status']) =>
    waitFor(
      async () => {
        const current = await api.ok<RefundView>('GET', '/refunds/{refund_id}', { params: { refund_id: id } });
        return current.status === status ? current : null;
      },
      20_000,
      25,
    );
  const notify = async (processor: 'adyen' | 'checkout', account: string, body: string, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${running.system.baseUrl}/processor-notifications/${processor}/${account}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    expect(answer.status).toBe(200);
  };
  async function routeAll(processor: 'adyen' | 'checkout', captureMode: 'automatic' | 'manual'): Promise<string> {
    const created = await running.merchant.call('POST', '/processor-accounts', {
      json: {
        processor,
        name: processor,
        credentials: processor === 'adyen' ? ADYEN : CHECKOUT,
        settings: { base_url: processor === 'adyen' ? adyen.baseUrl : checkout.baseUrl },
      },
    });
    expect(created.status).toBe(201);
    const account = created.json<{ id: string }>().id;
    const name = `${processor}-${captureMode}-${account.slice(-6)}`;
    await api.ok('POST', '/flows', {
      json: {
        name,
        capture_mode: captureMode,
        steps: [
          { kind: 'authorization', processor: account, fallback: [] },
          { kind: 'capture', processor: account },
        ],
      },
    });
    await api.ok('PUT', '/flow-matrix', { json: { default_flow: name, rules: [] } });
    return account;
  }

  describe('on the simulator', () => {
    beforeAll(async () => {
      await api.ok('PUT', '/flow-matrix', {
        json: {
          default_flow: 'simulator_auto_capture',
          rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
        },
      });
    });

    it('when a captured payment is refunded in part with an Idempotency-Key, then 201 pending, the repeat gets the same refund, it succeeds, the payment shows amount.refunded, and refund.created and refund.succeeded webhooks verify', async () => {
      const payment = await pay(SIMULATOR_CARDS.approved, 'order-refund-1');
      await api.until(payment.id, 'captured');
      const key = { 'Idempotency-Key': `refund-${payment.id}` };
      const first = await refund(payment.id, { amount: 500, currency_code: 'EUR', reason: 'requested_by_customer', reference: 'rma-1' }, key);
      expect(first.status).toBe(201);
      const created = first.json<RefundView>();
      expect(created).toMatchObject({ object: 'refund', payment_id: payment.id, amount: 500, status: 'pending', livemode: false });
      const again = await refund(payment.id, { amount: 500, currency_code: 'EUR', reason: 'requested_by_customer', reference: 'rma-1' }, key);
      expect(again.json<RefundView>().id).toBe(created.id);
      await refundUntil(created.id, 'succeeded');
      expect(await api.get(payment.id)).toMatchObject({ status: 'captured', amount: { captured: 1250, refunded: 500 } });
      await api.refused(422, 'amount_exceeds_refundable', 'POST', '/payments/{payment_id}/refunds', {
        params: { payment_id: payment.id },
        json: { amount: 751 },
      });
      await webhookTypes(payment.id, ['refund.created', 'refund.succeeded']);
      const succeeded = webhooksOf(payment.id).find((payload) => payload.type === 'refund.succeeded')!;
      expect(succeeded.data).toMatchObject({ id: created.id, object: 'refund', amount: 500, status: 'succeeded', livemode: false });
      const listed = await api.ok<{ data: RefundView[] }>('GET', '/refunds', { query: `payment_id=${payment.id}&status=succeeded` });
      expect(listed.data.map((r) => r.id)).toEqual([created.id]);
    });

    it('when the card is 4000000000005126, then the payment is captured and its refund fails with refund_failed (refund.failed webhook), the amount refundable again', async () => {
      const payment = await pay(REFUND_FAILS, 'order-refund-fails');
      await api.until(payment.id, 'captured');
      const created = (await refund(payment.id, {})).json<RefundView>();
      expect(await refundUntil(created.id, 'failed')).toMatchObject({ failure_reason: 'refund_failed', amount: 1250 });
      await webhookTypes(payment.id, ['refund.failed']);
      expect((await refund(payment.id, { amount: 1250 })).status).toBe(201);
    });

    it('when an authorized payment is canceled, then it is canceled (payment.canceled webhook), the void is a transaction, and a capture answers 409 capture_not_allowed', async () => {
      const payment = await pay(SIMULATOR_CARDS.approved, 'manual-cancel-1');
      await api.until(payment.id, 'authorized');
      const canceled = await api.ok('POST', '/payments/{payment_id}/cancel', {
        params: { payment_id: payment.id },
        json: { reference: 'order-canceled' },
        headers: { 'Idempotency-Key': `cancel-${payment.id}` },
      });
      expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
      expect((await api.transactions(payment.id)).map((t) => `${t.kind}:${t.status}`)).toEqual(['authorization:succeeded', 'void:succeeded']);
      await api.refused(409, 'capture_not_allowed', 'POST', '/payments/{payment_id}/capture', { params: { payment_id: payment.id }, json: {} });
      await api.refused(409, 'refund_not_allowed', 'POST', '/payments/{payment_id}/refunds', { params: { payment_id: payment.id }, json: {} });
      await webhookTypes(payment.id, ['payment.canceled']);
      expect(webhooksOf(payment.id).find((payload) => payload.type === 'payment.canceled')!.data).toMatchObject({
        status: 'canceled',
        cancellation_reason: 'requested_by_merchant',
      });
    });

    it('when a payment is canceled while its hosted page is open, then the card the consumer submits is refused 409 and the page (Chromium) says the payment was canceled', async () => {
      const created = await api.ok('POST', '/payments/one-off', {
        json: { amount: 1999, currency_code: 'EUR', reference: 'order-cancel-early', source: { type: 'vaultline' } },
      });
      const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
      await page.goto(`${running.system.baseUrl}/checkout/${sessionOf(created)}`);
      await page.getByRole('button', { name: /^Pay .*\d/ }).waitFor({ timeout: 30_000 });
      expect(await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: created.id } })).toMatchObject({
        status: 'canceled',
        cancellation_reason: 'requested_by_merchant',
      });
      await waitFor(
        async () => ((await (await fetch(`${running.system.baseUrl}/sessions/${sessionOf(created)}/status`)).json()) as { state: string }).state === 'canceled',
        10_000,
        25,
      );
      await page.getByLabel('Card number').pressSequentially(SIMULATOR_CARDS.approved);
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('Security code').fill('123');
      await page.getByRole('button', { name: /Pay/ }).click();
      await outcomeShown(page, 'Payment canceled');
      expect(await page.locator('#result-detail').textContent()).toBe('The shop canceled this payment; nothing was charged.');
      await page.close();
      const card = await fetch(`${running.system.baseUrl}/sessions/${sessionOf(created)}/card`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ card: { number: SIMULATOR_CARDS.approved, exp_month: 12, exp_year: 2034, cvc: '123' } }),
      });
      expect([card.status, ((await card.json()) as { code: string }).code]).toEqual([409, 'checkout_session_canceled']);
      expect(await api.get(created.id)).toMatchObject({ status: 'canceled' });
    }, 90_000);

    it('when a payment of the earlier interface (POST /payments) is captured, then it is refunded the same way and shows amount_refunded', async () => {
      const created = await api.ok('POST', '/payments', {
        json: { amount: 900, currency_code: 'EUR', confirm: true, payment_method_types: ['card'], reference: 'order-earlier-1' },
      });
      await submitCard(running.system.baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
      await api.until(created.id, 'captured');
      const made = (await refund(created.id, { amount: 400 })).json<RefundView>();
      await refundUntil(made.id, 'succeeded');
      expect(await api.get(created.id)).toMatchObject({ status: 'captured', use_case: 'guest_payment', amount: 900, amount_refunded: 400 });
      const found = await api.ok<{ data: PaymentView[] }>('GET', '/payments', { query: 'use_case=guest_payment&reference=order-earlier-1' });
      expect(found.data.map((p) => p.id)).toEqual([created.id]);
    });

    it('when payments are searched, then status and reference combine and a bad value answers 422', async () => {
      const payment = await pay(SIMULATOR_CARDS.approved, 'order-search-77');
      await api.until(payment.id, 'captured');
      const found = await api.ok<{ data: PaymentView[] }>('GET', '/payments', { query: 'status=captured&reference=order-search-77' });
      expect(found.data.map((p) => p.id)).toEqual([payment.id]);
      await api.refused(422, 'validation_failed', 'GET', '/payments', { query: 'created_gte=last-week' });
    });
  });

  describe('on the processor stand-ins', () => {
    it('when an Adyen payment is refunded, then Adyen receives /refunds and its REFUND notification, delivered through the gateway, settles the refund', async () => {
      const account = await routeAll('adyen', 'automatic');
      const payment = await pay(ADYEN_TEST_CARDS.approved, 'order-adyen-refund');
      // Adyen captured it by itself; its CAPTURE notification confirms it.
      const captured = await waitFor(
        () =>
          adyen.notifications.find(
            (n) =>
              n.notificationItems[0]!.NotificationRequestItem.eventCode === 'CAPTURE' &&
              n.notificationItems[0]!.NotificationRequestItem.merchantReference === payment.id,
          ),
        10_000,
        25,
      );
      await notify('adyen', account, JSON.stringify(captured));
      await api.until(payment.id, 'captured');
      const created = (await refund(payment.id, { amount: 700 })).json<RefundView>();
      const notification = await waitFor(
        () =>
          adyen.notifications.find(
            (n) =>
              n.notificationItems[0]!.NotificationRequestItem.eventCode === 'REFUND' &&
              n.notificationItems[0]!.NotificationRequestItem.merchantReference === created.id,
          ),
        10_000,
        25,
      );
      expect(adyen.refunds.at(-1)!.headers['idempotency-key']).toBe(`${payment.id}:refund:${created.id}`);
      await notify('adyen', account, JSON.stringify(notification));
      await refundUntil(created.id, 'succeeded');
      expect((await api.get(payment.id)).amount).toMatchObject({ refunded: 700 });
      await webhookTypes(payment.id, ['refund.created', 'refund.succeeded']);
    });

    it('when an Adyen authorization is canceled, then the payment is canceling until the CANCELLATION notification, then canceled', async () => {
      const account = await routeAll('adyen', 'manual');
      const payment = await pay(ADYEN_TEST_CARDS.approved, 'order-adyen-cancel');
      await api.until(payment.id, 'authorized');
      expect(await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: payment.id } })).toMatchObject({
        status: 'canceling',
        cancellation_reason: 'requested_by_merchant',
      });
      const authorization = adyen.payments.find((p) => p.body.reference === payment.id)!;
      const notification = await waitFor(
        () =>
          adyen.notifications.find(
            (n) =>
              n.notificationItems[0]!.NotificationRequestItem.eventCode === 'CANCELLATION' &&
              n.notificationItems[0]!.NotificationRequestItem.originalReference === authorization.pspReference,
          ),
        10_000,
        25,
      );
      await notify('adyen', account, JSON.stringify(notification));
      await api.until(payment.id, 'canceled');
      await webhookTypes(payment.id, ['payment.canceled']);
    });

    it('when a Checkout.com payment is refunded and another canceled, then payment_refunded and payment_voided, delivered through the gateway, settle them', async () => {
      const account = await routeAll('checkout', 'manual');
      const toCancel = await pay(CHECKOUT_TEST_CARDS.approved, 'order-cko-cancel');
      await api.until(toCancel.id, 'authorized');
      expect((await api.ok('POST', '/payments/{payment_id}/cancel', { params: { payment_id: toCancel.id } })).status).toBe('canceling');
      const voided = await waitFor(
        () => checkout.webhooks.find((w) => JSON.parse(w.rawBody).type === 'payment_voided' && JSON.parse(w.rawBody).data.reference === toCancel.id),
        10_000,
        25,
      );
      await notify('checkout', account, voided.rawBody, { 'cko-signature': voided.signature });
      await api.until(toCancel.id, 'canceled');

      const toRefund = await pay(CHECKOUT_TEST_CARDS.approved, 'order-cko-refund');
      await api.until(toRefund.id, 'authorized');
      await api.ok('POST', '/payments/{payment_id}/capture', { params: { payment_id: toRefund.id }, json: {} });
      const captured = await waitFor(
        () => checkout.webhooks.find((w) => JSON.parse(w.rawBody).type === 'payment_captured' && JSON.parse(w.rawBody).data.reference === toRefund.id),
        10_000,
        25,
      );
      await notify('checkout', account, captured.rawBody, { 'cko-signature': captured.signature });
      await api.until(toRefund.id, 'captured');
      const created = (await refund(toRefund.id, {})).json<RefundView>();
      const refunded = await waitFor(
        () => checkout.webhooks.find((w) => JSON.parse(w.rawBody).type === 'payment_refunded' && JSON.parse(w.rawBody).data.reference === created.id),
        10_000,
        25,
      );
      await notify('checkout', account, refunded.rawBody, { 'cko-signature': refunded.signature });
      await refundUntil(created.id, 'succeeded');
      expect((await api.get(toRefund.id)).amount).toMatchObject({ captured: 1250, refunded: 1250 });
    });
  });
});
