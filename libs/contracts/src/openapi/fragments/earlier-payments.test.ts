import { buildOpenApiDocument } from '../document';
import { validateAgainstOpenApi, validateRequestAgainstOpenApi } from '../validate-response';

type Operation = { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> };
const paths = buildOpenApiDocument().paths as Record<string, Record<string, Operation>>;
const EARLIER = /^\/(customers|payment-methods)|^\/payments$/;

describe('the earlier payment interface in the OpenAPI document', () => {
  it('when built, then POST /payments, the customer routes and the payment-method routes are documented, and every example is valid against its own schema', () => {
    const documented = Object.entries(paths).filter(([path]) => EARLIER.test(path)).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(
      ['DELETE /payment-methods/{payment_method_id}', 'GET /customers', 'GET /customers/{customer_id}', 'GET /customers/{customer_id}/payment-methods', 'GET /payment-methods/{payment_method_id}', 'GET /payments', 'POST /customers', 'POST /payments'].sort(),
    );
    for (const [path, item] of Object.entries(paths).filter(([path]) => EARLIER.test(path))) {
      for (const [method, operation] of Object.entries(item)) {
        const requestExample = operation.requestBody?.content['application/json']?.example;
        if (requestExample !== undefined) expect({ method, path, ...validateRequestAgainstOpenApi(method, path, requestExample) }).toEqual({ method, path, valid: true, errors: [] });
        for (const [status, response] of Object.entries(operation.responses)) {
          const example = response.content?.['application/json']?.example;
          if (example !== undefined) expect({ method, path, status, ...validateAgainstOpenApi(method, path, Number(status), example) }).toEqual({ method, path, status, valid: true, errors: [] });
        }
      }
    }
  });

  it('when GET /payments/{payment_id} answers a payment of either interface, then both shapes are valid and a mix of the two is not', () => {
    const earlier = { id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c04', amount: 1999, created_at: '2026-11-23T10:15:00.000Z', currency_code: 'EUR', payment_method: null, status: 'processing', use_case: 'guest_payment' };
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, earlier).valid).toBe(true);
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...earlier, use_case: 'ONE_OFF' }).valid).toBe(false);
    expect(validateAgainstOpenApi('get', '/payments/{payment_id}', 200, { ...earlier, amount: { requested: 1999 } }).valid).toBe(false);
  });

  it('when confirm is false or store_payment_method_for names another use case, then the documented request schema refuses it', () => {
    expect(validateRequestAgainstOpenApi('post', '/payments', { amount: 100, currency_code: 'EUR', confirm: false }).valid).toBe(false);
    expect(validateRequestAgainstOpenApi('post', '/payments', { amount: 100, currency_code: 'EUR', confirm: true, store_payment_method_for: { use_case: 'forever' } }).valid).toBe(false);
  });
});
