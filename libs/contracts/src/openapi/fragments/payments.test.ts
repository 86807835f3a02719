import { buildOpenApiDocument } from '../document';
import type { JsonObject } from '../openapi-fragment';
import { validateAgainstOpenApi, validateRequestAgainstOpenApi } from '../validate-response';

type Operation = {
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};
const paths = buildOpenApiDocument().paths as Record<string, Record<string, Operation>>;

const ISSUE_ENDPOINTS: Array<[string, string]> = [
  ['post', '/payments/one-off'],
  ['post', '/payments/recurring'],
  ['post', '/payments/unscheduled'],
  ['post', '/payments/recurring/{payment_id}/subsequent'],
  ['post', '/payments/unscheduled/{payment_id}/subsequent'],
  ['post', '/payments/{payment_id}/capture'],
  ['get', '/payments/{payment_id}'],
  ['get', '/payments'],
  ['get', '/payments/{payment_id}/transactions'],
  ['put', '/flow-matrix'],
  ['get', '/flow-matrix'],
  ['post', '/flow-matrix/explain'],
  ['post', '/flows'],
  ['get', '/flows'],
  ['get', '/flows/{flow_name}'],
  // After the sale (issue #24).
  ['post', '/payments/{payment_id}/cancel'],
  ['post', '/payments/{payment_id}/refunds'],
  ['get', '/payments/{payment_id}/refunds'],
  ['get', '/refunds/{refund_id}'],
  ['get', '/refunds'],
];

const PROBLEM_CODES = [
  'test_clock_not_allowed',
  'amount_exceeds_initial',
  'recurring_frequency_not_respected',
  'credentials_expired',
  'initial_payment_not_successful',
  'use_case_mismatch',
  'capture_not_allowed',
  'already_captured',
  'amount_exceeds_authorized',
  'multiple_captures_not_supported',
  'currency_mismatch',
  'simulator_not_allowed_in_live_mode',
  'payment_not_found',
  'cancel_not_allowed',
  'refund_not_allowed',
  'amount_exceeds_refundable',
];

const payment = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  livemode: false,
  amount: { requested: 1999 },
  created_at: '2026-11-23T10:15:00.000Z',
  currency_code: 'EUR',
  reference: 'order-1',
  status: 'processing',
  use_case: 'ONE_OFF',
};
const source = { type: 'card', cardholder_name: null, expiry_month: 12, expiry_year: 2030, masked_account_number: '400000******0002', pan_type: 'FPAN' };

describe('the payments part of the OpenAPI document', () => {
  it('when built, then every endpoint of the payment orchestration issue is documented with one example per request and per success response', () => {
    for (const [method, path] of ISSUE_ENDPOINTS) {
      const operation = paths[path]?.[method];
      expect({ method, path, documented: Boolean(operation) }).toEqual({ method, path, documented: true });
      const success = Object.entries(operation!.responses).find(([status]) => status.startsWith('2'))!;
      expect({ method, path, example: success[1].content?.['application/json']?.example !== undefined }).toEqual({ method, path, example: true });
      if (operation!.requestBody)
        expect({ method, path, example: operation!.requestBody.content['application/json']?.example !== undefined }).toEqual({ method, path, example: true });
    }
  });

  it('when each example is checked against its own schema, then every request and response example is valid', () => {
    for (const [path, item] of Object.entries(paths).filter(([path]) => /^\/(payments|flow-matrix|flows|customers|payment-methods|refunds)/.test(path))) {
      for (const [method, operation] of Object.entries(item)) {
        const requestExample = operation.requestBody?.content['application/json']?.example;
        if (requestExample !== undefined)
          expect({ method, path, ...validateRequestAgainstOpenApi(method, path, requestExample) }).toEqual({ method, path, valid: true, errors: [] });
        for (const [status, response] of Object.entries(operation.responses)) {
          const example = response.content?.['application/json']?.example;
          if (example !== undefined)
            expect({ method, path, status, ...validateAgainstOpenApi(method, path, Number(status), example) }).toEqual({
              method,
              path,
              status,
              valid: true,
              errors: [],
            });
        }
      }
    }
  });

  it('when the problem codes of the issue are looked for, then each is named by an error response of the payment endpoints', () => {
    const described = JSON.stringify(Object.entries(paths).filter(([path]) => path.startsWith('/payments')));
    for (const code of PROBLEM_CODES) expect({ code, named: described.includes(code) }).toEqual({ code, named: true });
  });

  it('when a payment carries a field the spec does not list, then it is invalid (the document and the service cannot drift apart)', () => {
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, payment).valid).toBe(true);
    const extra = validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...payment, token_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b09' });
    expect(extra.valid).toBe(false);
  });

  it('when a payment does not say its mode, then it is invalid: livemode is on every payment', () => {
    const { livemode: _livemode, ...withoutMode } = payment;
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, withoutMode).valid).toBe(false);
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...payment, livemode: 'false' }).valid).toBe(false);
  });

  it('when the use case and the status disagree with the fields, then the payment is invalid', () => {
    const get = (body: JsonObject) => validateAgainstOpenApi('get', '/payments/{payment_id}', 200, body).valid;
    expect(get({ ...payment, use_case: 'RECURRING' })).toBe(false); // no credential_id, frequency, expiry
    expect(get({ ...payment, use_case: 'SUBSEQUENT_RECURRING' })).toBe(false); // no initial_payment_id, source …
    expect(get({ ...payment, status: 'captured', source, amount: { requested: 1999, authorized: 1999 } })).toBe(false); // captured without amount.captured
    expect(get({ ...payment, status: 'captured', source, amount: { requested: 1999, authorized: 1999, captured: 1999, capturable: 0 } })).toBe(false); // captured without amount.disputed and amount.net
    expect(get({ ...payment, status: 'captured', source, amount: { requested: 1999, authorized: 1999, captured: 1999, disputed: 1999, net: 0 } })).toBe(false); // without amount.capturable
    expect(
      get({ ...payment, status: 'captured', source, amount: { requested: 1999, authorized: 1999, captured: 1999, capturable: 0, disputed: 1999, net: 0 } }),
    ).toBe(true);
    expect(get({ ...payment, status: 'partially_captured', source, amount: { requested: 1999, authorized: 1999, capturable: 999 } })).toBe(false); // partially captured without amount.captured
    expect(
      get({
        ...payment,
        status: 'partially_captured',
        source,
        amount: { requested: 1999, authorized: 1999, captured: 1000, capturable: 999, disputed: 0, net: 1000 },
      }),
    ).toBe(true);
    expect(get({ ...payment, status: 'failed' })).toBe(false); // failed without failure_reason
    expect(get({ ...payment, status: 'failed', failure_reason: 'card_declined' })).toBe(true);
    expect(get({ ...payment, status: 'canceled' })).toBe(false); // canceled without cancellation_reason
    expect(get({ ...payment, status: 'canceled', cancellation_reason: 'authorization_expired' })).toBe(true);
  });

  it('when a refund carries a field the document does not list, or misses one, then it is invalid', () => {
    const refund = {
      id: payment.id,
      object: 'refund',
      payment_id: payment.id,
      amount: 1,
      currency_code: 'EUR',
      status: 'pending',
      failure_reason: null,
      reason: null,
      reference: null,
      livemode: false,
      created_at: payment.created_at,
    };
    expect(validateAgainstOpenApi('get', '/refunds/{refund_id}', 200, refund).valid).toBe(true);
    expect(validateAgainstOpenApi('get', '/refunds/{refund_id}', 200, { ...refund, processor: 'simulator' }).valid).toBe(false);
    const { livemode: _livemode, ...withoutLivemode } = refund;
    expect(validateAgainstOpenApi('get', '/refunds/{refund_id}', 200, withoutLivemode).valid).toBe(false);
  });

  it('when a consumer-present payment is created, then its answer must carry the action requirement and be processing', () => {
    const created = (body: JsonObject) => validateAgainstOpenApi('post', '/payments/one-off', 200, body).valid;
    expect(created(payment)).toBe(false);
    expect(created({ ...payment, action_requirement: { type: 'use_sdk', session_id: '6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b02' } })).toBe(true);
  });

  it('when a request names another source type, a malformed recurring expiry or a zero amount, then the documented request schemas refuse it; explain also takes a payment as answered', () => {
    expect(validateRequestAgainstOpenApi('post', '/payments/one-off', { amount: 100, currency_code: 'EUR', source: { type: 'card' } }).valid).toBe(false);
    expect(
      validateRequestAgainstOpenApi('post', '/payments/recurring', {
        amount: 100,
        currency_code: 'EUR',
        recurring_frequency: 30,
        recurring_expiry: '2027-12-31',
      }).valid,
    ).toBe(false);
    expect(validateRequestAgainstOpenApi('post', '/payments/{payment_id}/capture', { amount: 100 }).valid).toBe(false); // partial capture without currency
    expect(validateRequestAgainstOpenApi('post', '/flow-matrix/explain', { amount: { requested: 100 }, currency_code: 'EUR', status: 'captured' }).valid).toBe(
      true,
    ); // a payment as answered
    expect(validateRequestAgainstOpenApi('post', '/flow-matrix/explain', { amount: 0, currency_code: 'EUR' }).valid).toBe(false);
  });
});
