import type { MerchantComponents, Vaultline, WebhookEvent, WebhookHeaders } from '@vaultline/node';

/** What the shop asks of Vaultline, every call through the SDK. */
export interface CheckoutRequest {
  orderId: string;
  amount: number;
  currency: string;
  description: string;
}

export type Refund = MerchantComponents['schemas']['Refund'];

export class ShopPayments {
  private webhookSecret: string | undefined;

  /** `webhookSecret`: the secret of `vaultline listen` (VAULTLINE_WEBHOOK_SECRET): the shop then registers no endpoint. */
  constructor(
    private readonly vaultline: Vaultline,
    private readonly shopUrl: string,
    webhookSecret?: string,
  ) {
    this.webhookSecret = webhookSecret;
  }

  /**
   * A one-off payment for the order: the consumer pays it in the checkout.js iframe on the shop's own page
   * (allowed_origins) or on the hosted page, which sends them back to the order (return_url). The order id as
   * Idempotency-Key: a retried request can never create a second payment for the same order.
   */
  async startCheckout(request: CheckoutRequest): Promise<{ paymentId: string; sessionId: string }> {
    const payment = await this.vaultline.post('/payments/one-off', {
      params: { header: { 'Idempotency-Key': `order-${request.orderId}` } },
      body: {
        amount: request.amount,
        currency_code: request.currency,
        reference: request.orderId,
        description: request.description,
        source: { type: 'vaultline' },
        return_url: `${this.shopUrl}/orders/${request.orderId}`,
        allowed_origins: [this.shopUrl],
      },
    });
    if (!payment.action_requirement) throw new Error(`Payment ${payment.id} came without a checkout session.`);
    return { paymentId: payment.id, sessionId: payment.action_requirement.session_id };
  }

  /**
   * Cancels a payment not captured: one whose consumer has not entered a card yet, or an authorized one
   * (manual capture). Nothing is charged. Answers the payment's status: canceled, or canceling while a
   * processor that confirms by notification has not confirmed the void yet.
   */
  async cancel(paymentId: string): Promise<string> {
    const payment = await this.vaultline.post('/payments/{payment_id}/cancel', { params: { path: { payment_id: paymentId } }, body: {} });
    return payment.status;
  }

  /** Refunds the whole payment; it settles a moment later: refund.succeeded or refund.failed. */
  async refund(paymentId: string, orderId: string): Promise<Refund> {
    return this.vaultline.post('/payments/{payment_id}/refunds', {
      params: { path: { payment_id: paymentId } },
      body: { reference: orderId, reason: 'requested_by_customer' },
    });
  }

  /**
   * Registers {shopUrl}/webhooks/vaultline for every event type and keeps its signing secret (Vaultline
   * shows a secret only when the endpoint is created). An endpoint of an earlier run of the shop at the
   * same address is removed first, so restarts do not pile endpoints up. With a `vaultline listen` secret
   * (the CLI forwards the events), nothing is registered.
   */
  async registerWebhookEndpoint(): Promise<void> {
    if (this.webhookSecret) return;
    const url = `${this.shopUrl}/webhooks/vaultline`;
    const earlier: string[] = [];
    for await (const endpoint of this.vaultline.list('/webhook-endpoints')) if (endpoint.url === url) earlier.push(endpoint.id);
    for (const id of earlier) await this.vaultline.delete('/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: id } } });
    const endpoint = await this.vaultline.post('/webhook-endpoints', { body: { url, description: 'Example shop: order updates' } });
    this.webhookSecret = endpoint.secret;
  }

  /** The event of a delivery, its signature checked with the SDK (throws WebhookVerificationError). */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): WebhookEvent {
    if (!this.webhookSecret) throw new Error('The webhook endpoint is not registered yet.');
    return this.vaultline.webhooks.verify(rawBody, headers, this.webhookSecret);
  }
}
