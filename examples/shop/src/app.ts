import express, { type Express, type Response } from 'express';
import { VaultlineError, WebhookVerificationError } from '@vaultline/node';
import { PRODUCTS, productById } from './catalog.js';
import { canCancel, canRefund, newOrderId, orderStatusAfter, type Order, type OrderBook } from './orders.js';
import { checkoutPage, notFoundPage, orderPage, productPage } from './pages.js';
import type { ShopPayments } from './payments.js';

export interface ShopDependencies {
  orders: OrderBook;
  payments: ShopPayments;
  /** Where the consumer's browser loads checkout.js and the hosted page from. */
  vaultlineUrl: string;
}

/** The shop's routes: the product, an order and its checkout, the order page's buttons, and Vaultline's webhooks. */
export function createShopApp({ orders, payments, vaultlineUrl }: ShopDependencies): Express {
  const app = express();

  app.get('/', (_req, res) => {
    res.type('html').send(productPage(PRODUCTS[0]!));
  });

  app.post('/orders', express.urlencoded({ extended: false }), async (req, res) => {
    const product = productById(String(req.body?.product_id));
    const quantity = Number(req.body?.quantity);
    if (!product || !Number.isInteger(quantity) || quantity < 1 || quantity > 3) {
      res.status(400).type('html').send(notFoundPage());
      return;
    }
    const orderId = newOrderId();
    const amount = product.price * quantity;
    const description = `${quantity} × ${product.name}`;
    const { paymentId, sessionId } = await payments.startCheckout({ orderId, amount, currency: product.currency, description });
    orders.add({ id: orderId, productId: product.id, quantity, amount, currency: product.currency, paymentId, sessionId });
    res.redirect(303, `/orders/${orderId}/checkout`);
  });

  app.get('/orders/:orderId/checkout', (req, res) => {
    withOrder(res, req.params.orderId, (order, product) => {
      if (order.status !== 'awaiting_payment') return res.redirect(303, `/orders/${order.id}`);
      return res.type('html').send(checkoutPage(order, product, vaultlineUrl));
    });
  });

  // The consumer lands here from checkout.js (onComplete) or from the hosted page (return_url, with
  // session_id, payment_id and payment_status added): the shop trusts only its webhooks for the status.
  app.get('/orders/:orderId', (req, res) => {
    const justPaid = typeof req.query.payment_status === 'string';
    withOrder(res, req.params.orderId, (order, product) => res.type('html').send(orderPage(order, product, { justPaid })));
  });

  app.post('/orders/:orderId/cancel', async (req, res) => {
    const order = orders.get(req.params.orderId);
    if (!order || !canCancel(order)) return void res.redirect(303, `/orders/${req.params.orderId}`);
    // Canceled at once on the simulator; a processor that confirms by notification sends payment.canceled later.
    if ((await payments.cancel(order.paymentId)) === 'canceled') orders.update(order.id, { status: 'canceled' });
    res.redirect(303, `/orders/${order.id}`);
  });

  app.post('/orders/:orderId/refund', async (req, res) => {
    const order = orders.get(req.params.orderId);
    if (!order || !canRefund(order)) return void res.redirect(303, `/orders/${req.params.orderId}`);
    const refund = await payments.refund(order.paymentId, order.id);
    orders.update(order.id, { refundId: refund.id, status: refund.status === 'succeeded' ? 'refunded' : 'refund_pending' });
    res.redirect(303, `/orders/${order.id}`);
  });

  // The raw body, exactly as sent: the signature covers those bytes.
  app.post('/webhooks/vaultline', express.raw({ type: 'application/json' }), (req, res) => {
    let event;
    try {
      event = payments.verifyWebhook(req.body as Buffer, req.headers);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return void res.status(400).send('signature not valid');
      throw error;
    }
    const data = event.data as { payment_id?: string; refund_id?: string; id?: string; failure_reason?: string | null };
    const order = data.payment_id ? orders.byPayment(data.payment_id) : undefined;
    if (order) {
      const status = orderStatusAfter(order.status, event.type);
      orders.update(order.id, { status, ...(data.failure_reason ? { failureReason: data.failure_reason } : {}) });
    }
    // 2xx for every verified event, also those of no order of this shop: Vaultline would otherwise retry them.
    res.status(204).end();
  });

  function withOrder(res: Response, orderId: string, show: (order: Order, product: NonNullable<ReturnType<typeof productById>>) => void): void {
    const order = orders.get(orderId);
    const product = order && productById(order.productId);
    if (!order || !product) return void res.status(404).type('html').send(notFoundPage());
    show(order, product);
  }

  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const detail = error instanceof VaultlineError ? `Vaultline answered ${error.status} ${error.code}: ${error.detail}` : 'Something went wrong.';
    res.status(502).type('text').send(detail);
  });

  return app;
}
