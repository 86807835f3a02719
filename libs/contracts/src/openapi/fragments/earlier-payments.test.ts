import { buildOpenApiDocument } from '../document';
import { validateAgainstOpenApi, validateRequestAgainstOpenApi } from '../validate-response';

const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
const EARLIER = /^\/(customers|payment-methods)|^\/payments$/;

describe('the earlier payment interface in the OpenAPI document', () => {
  it('when built, then POST /payments, the customer routes and the payment-method routes are documented', () => {
    const documented = Object.entries(paths)
      .filter(([path]) => EARLIER.test(path))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(
      [
        'DELETE /payment-methods/{payment_method_id}',
        'GET /customers',
        'GET /customers/{customer_id}',
        'GET /customers/{customer_id}/payment-methods',
        'GET /payment-methods/{payment_method_id}',
        'GET /payments',
        'POST /customers',
        'POST /payments',
      ].sort(),
    );
    // Each example is checked against its own schema with the payments part (payments.test.ts).
  });

  it('when GET /payments/{payment_id} answers a payment of either interface, then both shapes are valid and a mix of the two is not', () => {
    const earlier = {
      id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c04',
      livemode: false,
      amount: 1999,
      created_at: '2026-11-23T10:15:00.000Z',
      currency_code: 'EUR',
      payment_method: null,
      status: 'processing',
      use_case: 'guest_payment',
    };
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, earlier).valid).toBe(true);
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...earlier, use_case: 'ONE_OFF' }).valid).toBe(false);
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...earlier, amount: { requested: 1999 } }).valid).toBe(false);
  });

  it('when confirm is false or store_payment_method_for names another use case, then the documented request schema refuses it', () => {
    expect(validateRequestAgainstOpenApi('post', '/payments', { amount: 100, currency_code: 'EUR', confirm: false }).valid).toBe(false);
    expect(
      validateRequestAgainstOpenApi('post', '/payments', {
        amount: 100,
        currency_code: 'EUR',
        confirm: true,
        store_payment_method_for: { use_case: 'forever' },
      }).valid,
    ).toBe(false);
  });
});
