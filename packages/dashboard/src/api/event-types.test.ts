import { eventTypesOf, groupedEventTypes } from './event-types';

describe('the event types the dashboard offers', () => {
  it('when the OpenAPI document is read, then the subscribable types are those of CreateWebhookEndpointRequest.events, in order', () => {
    const document = {
      components: {
        schemas: { CreateWebhookEndpointRequest: { properties: { events: { items: { enum: ['payment.captured', 'payment.failed', 'refund.succeeded'] } } } } },
      },
    };
    expect(eventTypesOf(document)).toEqual(['payment.captured', 'payment.failed', 'refund.succeeded']);
    expect(eventTypesOf({})).toEqual([]);
  });

  it('when types are grouped, then each resource holds its own, in the order met', () => {
    expect(groupedEventTypes(['payment.captured', 'refund.succeeded', 'payment.failed', 'checkout.session.opened'])).toEqual([
      { group: 'payment', types: ['payment.captured', 'payment.failed'] },
      { group: 'refund', types: ['refund.succeeded'] },
      { group: 'checkout', types: ['checkout.session.opened'] },
    ]);
  });
});
