import { orderStatusAfter } from './orders';

describe('an order following its payment by webhooks', () => {
  it('when the payment is captured and later refunded, then the order is paid, then refund pending, then refunded', () => {
    const paid = orderStatusAfter('awaiting_payment', 'payment.captured');
    const pending = orderStatusAfter(paid, 'refund.created');
    expect([paid, pending, orderStatusAfter(pending, 'refund.succeeded')]).toEqual(['paid', 'refund_pending', 'refunded']);
  });

  it('when a delivery comes late or twice, then it does not move the order back', () => {
    expect(orderStatusAfter('refunded', 'refund.created')).toBe('refunded');
    expect(orderStatusAfter('refunded', 'payment.captured')).toBe('refunded');
    expect(orderStatusAfter('paid', 'payment.authorized')).toBe('paid');
    expect(orderStatusAfter('canceled', 'payment.failed')).toBe('canceled');
  });

  it('when an event is of a type the shop does not follow, then the order stays as it is', () => {
    expect(orderStatusAfter('awaiting_payment', 'payment.processing')).toBe('awaiting_payment');
  });
});
