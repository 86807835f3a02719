import { formatPrice, type Product } from './catalog.js';
import { canCancel, canRefund, type Order, type OrderStatus } from './orders.js';

/** The shop's pages: plain HTML, no framework, so that what matters (the checkout) stands out. */

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f4f1; }
  header { background: #3b2314; color: #fff; padding: 14px 24px; font-weight: 600; }
  header a { color: inherit; text-decoration: none; }
  main { max-width: 560px; margin: 32px auto; padding: 0 16px; }
  .card { background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
  .price { font-size: 22px; font-weight: 600; }
  .muted { color: #5f5f66; }
  button, .button { font: inherit; border: 0; border-radius: 8px; padding: 10px 18px; cursor: pointer; background: #6d3b1f; color: #fff; text-decoration: none; }
  button.secondary { background: #e8e2dc; color: #3b2314; }
  .status { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 600; background: #e8e2dc; }
  .status.paid, .status.refunded { background: #d9f2e1; color: #14532d; }
  .status.payment_failed, .status.refund_failed { background: #fde2e1; color: #7f1d1d; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
  dt { color: #5f5f66; } dd { margin: 0; }
  .actions { display: flex; gap: 12px; margin-top: 20px; }
  label { display: block; margin: 16px 0 6px; }
  select { font: inherit; padding: 6px; }`;

function layout(title: string, body: string, options: { refreshSeconds?: number } = {}): string {
  const refresh = options.refreshSeconds ? `<meta http-equiv="refresh" content="${options.refreshSeconds}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escape(title)} · Example Coffee Shop</title><style>${STYLE}</style></head>
<body><header><a href="/">☕ Example Coffee Shop</a></header><main>${body}</main></body></html>`;
}

export function productPage(product: Product): string {
  const quantities = [1, 2, 3].map((n) => `<option value="${n}">${n}</option>`).join('');
  return layout(
    product.name,
    `<div class="card">
      <h1>${escape(product.name)}</h1>
      <p class="muted">${escape(product.description)}</p>
      <p class="price">${formatPrice(product.price, product.currency)}</p>
      <form method="post" action="/orders">
        <input type="hidden" name="product_id" value="${escape(product.id)}">
        <label for="quantity">Quantity</label>
        <select id="quantity" name="quantity">${quantities}</select>
        <div class="actions"><button type="submit">Buy now</button></div>
      </form>
    </div>`,
  );
}

/**
 * Card entry in the checkout.js iframe: the card form runs on Vaultline's origin, so card data never
 * touches this page. onComplete brings the consumer to the order; the hosted page is the fallback.
 */
export function checkoutPage(order: Order, product: Product, vaultlineUrl: string): string {
  const hostedPage = `${vaultlineUrl}/checkout/${encodeURIComponent(order.sessionId)}`;
  return layout(
    'Checkout',
    `<div class="card">
      <h1>Checkout</h1>
      <p>${order.quantity} × ${escape(product.name)} — <strong>${formatPrice(order.amount, order.currency)}</strong></p>
      <p class="muted">Trouble with the form below? <a id="hosted-page" href="${escape(hostedPage)}">Pay on the secure payment page instead</a>.</p>
      <div id="pay"></div>
    </div>
    <script src="${escape(vaultlineUrl)}/sdk/v1/checkout.js"></script>
    <script>
      Checkout.mount('#pay', {
        sessionId: ${JSON.stringify(order.sessionId)},
        onComplete: function (result) { location.href = '/orders/${encodeURIComponent(order.id)}?payment_status=' + encodeURIComponent(result.status); },
      });
    </script>`,
  );
}

const STATUS_TEXT: Record<OrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  authorized: 'Authorized (not charged yet)',
  paid: 'Paid',
  payment_failed: 'Payment failed',
  canceled: 'Canceled',
  refund_pending: 'Refund pending',
  refunded: 'Refunded',
  refund_failed: 'Refund failed',
};

/**
 * The order as the shop knows it from Vaultline's webhooks. While an outcome is on its way (the consumer
 * just paid, a refund settles) the page reloads itself every second.
 */
export function orderPage(order: Order, product: Product, options: { justPaid: boolean; notice?: string }): string {
  const waiting = (options.justPaid && order.status === 'awaiting_payment') || order.status === 'refund_pending';
  const button = (action: 'cancel' | 'refund', label: string, style = '') =>
    `<form method="post" action="/orders/${encodeURIComponent(order.id)}/${action}"><button type="submit" class="${style}">${label}</button></form>`;
  const actions = [
    order.status === 'awaiting_payment' ? `<a class="button" href="/orders/${encodeURIComponent(order.id)}/checkout">Pay now</a>` : '',
    canRefund(order) ? button('refund', 'Refund') : '',
    canCancel(order) ? button('cancel', 'Cancel order', 'secondary') : '',
  ].join('');
  return layout(
    `Order ${order.id}`,
    `<div class="card">
      <h1>Order ${escape(order.id)}</h1>
      ${options.notice ? `<p role="alert">${escape(options.notice)}</p>` : ''}
      <p>Status: <span id="order-status" class="status ${order.status}">${STATUS_TEXT[order.status]}</span>${waiting ? ' <span class="muted">updating…</span>' : ''}</p>
      <dl>
        <dt>Item</dt><dd>${order.quantity} × ${escape(product.name)}</dd>
        <dt>Total</dt><dd>${formatPrice(order.amount, order.currency)}</dd>
        <dt>Payment</dt><dd><code>${escape(order.paymentId)}</code></dd>
        ${order.refundId ? `<dt>Refund</dt><dd><code>${escape(order.refundId)}</code></dd>` : ''}
        ${order.failureReason ? `<dt>Reason</dt><dd>${escape(order.failureReason)}</dd>` : ''}
      </dl>
      <div class="actions">${actions}</div>
    </div>`,
    waiting ? { refreshSeconds: 1 } : {},
  );
}

export function notFoundPage(): string {
  return layout('Not found', '<div class="card"><h1>Not found</h1><p><a href="/">Back to the shop</a></p></div>');
}
