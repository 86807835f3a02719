import { randomUUID } from 'node:crypto';

/**
 * The shop's orders, kept in memory (an example: a real shop keeps them in its database). An order follows
 * its payment; the webhooks Vaultline sends move it along (orderStatusAfter).
 */
export type OrderStatus = 'awaiting_payment' | 'authorized' | 'paid' | 'payment_failed' | 'canceled' | 'refund_pending' | 'refunded' | 'refund_failed';

export interface Order {
  id: string;
  productId: string;
  quantity: number;
  amount: number;
  currency: string;
  status: OrderStatus;
  paymentId: string;
  /** The hosted page's session: checkout.js mounts it, or the consumer opens it as a page. */
  sessionId: string;
  failureReason: string | null;
  refundId: string | null;
  createdAt: Date;
}

/** Which webhook moves an order to which status, and from which statuses (a late or repeated delivery changes nothing). */
const TRANSITIONS: Record<string, { to: OrderStatus; from: readonly OrderStatus[] }> = {
  'payment.authorized': { to: 'authorized', from: ['awaiting_payment'] },
  'payment.captured': { to: 'paid', from: ['awaiting_payment', 'authorized'] },
  'payment.failed': { to: 'payment_failed', from: ['awaiting_payment', 'authorized'] },
  'payment.canceled': { to: 'canceled', from: ['awaiting_payment', 'authorized'] },
  'refund.created': { to: 'refund_pending', from: ['paid'] },
  'refund.succeeded': { to: 'refunded', from: ['paid', 'refund_pending', 'refund_failed'] },
  'refund.failed': { to: 'refund_failed', from: ['paid', 'refund_pending'] },
};

/** The status an order has after the event `type`, or its status unchanged when the event does not apply to it. */
export function orderStatusAfter(status: OrderStatus, type: string): OrderStatus {
  const transition = TRANSITIONS[type];
  return transition && transition.from.includes(status) ? transition.to : status;
}

export const canCancel = (order: Order): boolean => order.status === 'awaiting_payment' || order.status === 'authorized';
export const canRefund = (order: Order): boolean => order.status === 'paid' || order.status === 'refund_failed';

export class OrderBook {
  private readonly orders = new Map<string, Order>();

  add(order: Omit<Order, 'id' | 'status' | 'failureReason' | 'refundId' | 'createdAt'> & { id?: string }): Order {
    const created: Order = { ...order, id: order.id ?? newOrderId(), status: 'awaiting_payment', failureReason: null, refundId: null, createdAt: new Date() };
    this.orders.set(created.id, created);
    return created;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  byPayment(paymentId: string): Order | undefined {
    return [...this.orders.values()].find((order) => order.paymentId === paymentId);
  }

  update(id: string, change: Partial<Omit<Order, 'id'>>): Order | undefined {
    const order = this.orders.get(id);
    if (order) Object.assign(order, change);
    return order;
  }

  /** Newest first. */
  all(): Order[] {
    return [...this.orders.values()].reverse();
  }
}

/** An order number the consumer can read out: ord_ and 8 characters. */
export const newOrderId = (): string => `ord_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
