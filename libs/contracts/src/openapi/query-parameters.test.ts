import { buildOpenApiDocument } from './document';
import { queryDeclarationsOf } from './query-parameters';

describe('the query parameters each operation declares', () => {
  const declared = queryDeclarationsOf(buildOpenApiDocument({ audience: 'merchant' }));

  it("when a list route is looked up, then its filters and the page's parameters are what the document lists", () => {
    expect(declared('GET', '/payments')).toEqual({
      operation: 'GET /payments',
      names: expect.arrayContaining(['status', 'reference', 'customer_id', 'use_case', 'created_gte', 'created_lte', 'limit', 'starting_after', 'order']),
    });
    expect(declared('GET', '/payments')!.names).not.toContain('currency_code');
    expect(declared('GET', '/refunds')!.names).toEqual(expect.arrayContaining(['status', 'payment_id', 'limit']));
  });

  it('when a path has parameters, then any one segment fills each, and a written-out path wins over a template (/tokens/imports is not /tokens/{token_id})', () => {
    expect(declared('GET', '/webhook-endpoints/0f4c1a52-8c8f-4a64-9d5e-5b4c2a1f0e3d/deliveries')).toMatchObject({
      operation: 'GET /webhook-endpoints/{endpoint_id}/deliveries',
      names: expect.arrayContaining(['status']),
    });
    expect(declared('GET', '/tokens/imports')!.operation).toBe('GET /tokens/imports');
    expect(declared('GET', '/tokens/0f4c1a52-8c8f-4a64-9d5e-5b4c2a1f0e3d')).toEqual({ operation: 'GET /tokens/{token_id}', names: [] });
  });

  it('when a method or a path is not in the document, then there is no declaration (the service answers for itself)', () => {
    expect([declared('GET', '/nowhere'), declared('DELETE', '/payments'), declared('GET', '/payments/a/b/c/d')]).toEqual([null, null, null]);
  });
});
