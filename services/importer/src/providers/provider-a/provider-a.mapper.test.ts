import { forwardingForm, importAnswerOf, parseListPage, parsePosition, platformErrorOf, shouldRetryOf } from './provider-a.mapper';

describe('provider_a wire mapping', () => {
  it('when a forwarding request is built, then it is form-encoded with the payment method, url, X-API-Key header, body and the four replacements', () => {
    const form = new URLSearchParams(
      forwardingForm({
        paymentMethodId: 'pm_1',
        url: 'https://vault.example/cde-import',
        apiKey: 'vk_job',
        body: '{"metadata":{"business_key":"pm_1"}}',
        idempotencyKey: 'job:pm_1',
      }),
    );
    expect(form.get('payment_method')).toBe('pm_1');
    expect(form.get('url')).toBe('https://vault.example/cde-import');
    expect(form.get('request[headers][0][name]')).toBe('X-API-Key');
    expect(form.get('request[headers][0][value]')).toBe('vk_job');
    expect(JSON.parse(form.get('request[body]')!)).toEqual({ metadata: { business_key: 'pm_1' } });
    expect(form.getAll('replacements[]')).toEqual(['card_number', 'card_expiry', 'card_cvc', 'cardholder_name']);
  });

  it('when the forwarding response carries a vault refusal, then only its status and problem code are kept', () => {
    const answer = importAnswerOf({
      object: 'forwarding.request',
      response_details: { status: 422, body: JSON.stringify({ code: 'invalid_card_number', detail: 'The card number 4000…' }) },
    });
    expect(answer).toEqual({ status: 422, code: 'invalid_card_number' });
    expect(importAnswerOf({ object: 'forwarding.request', response_details: { status: 201, body: '{}' } })).toEqual({ status: 201, code: null });
  });

  it('when the platform answers something else than a ForwardingRequest, then it reads as a 502 without code', () => {
    expect(importAnswerOf({ unexpected: true })).toEqual({ status: 502, code: null });
  });

  it('when a list page or a stored position is malformed, then it is refused', () => {
    expect(() => parseListPage({ object: 'list', data: [{}] })).toThrow();
    expect(parseListPage({ object: 'list', has_more: false, data: [{ id: 'cus_1', name: 'x' }] }).data[0]!.id).toBe('cus_1');
    expect(parsePosition({ customers_after: null, customer_index: -1, methods_after: null, method_index: 0 })).toBeNull();
    expect(parsePosition(null)).toBeNull();
  });

  it('when the platform sends an error object, then its type, code and param are read, never its message', () => {
    expect(platformErrorOf({ error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: 'No such…' } })).toEqual({
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'payment_method',
    });
    expect(platformErrorOf({ error: { type: 'api_error' } })).toEqual({ type: 'api_error', code: null, param: null });
    expect(platformErrorOf('nope')).toEqual({ type: null, code: null, param: null });
  });

  it("when Stripe-Should-Retry is present, then it is the platform's verdict; absent or unreadable, there is none", () => {
    expect(shouldRetryOf({ 'stripe-should-retry': 'true' })).toBe(true);
    expect(shouldRetryOf({ 'stripe-should-retry': 'false' })).toBe(false);
    expect(shouldRetryOf({ 'stripe-should-retry': 'maybe' })).toBeNull();
    expect(shouldRetryOf({})).toBeNull();
    expect(shouldRetryOf({}, { error: { type: 'invalid_request_error', code: 'idempotency_key_in_use' } })).toBe(true);
    expect(shouldRetryOf({ 'stripe-should-retry': 'false' }, { error: { code: 'idempotency_key_in_use' } })).toBe(false);
  });
});
