import { buildOpenApiDocument } from './document';
import { validateAgainstOpenApi } from './validate-response';
import type { JsonObject, OpenApiFragment } from './openapi-fragment';

const problem = { type: 'https://docs.vaultline.dev/errors/x', title: 'Not Found', status: 404, detail: 'No such merchant.', code: 'merchant_not_found', request_id: 'r1' };

describe('the OpenAPI document', () => {
  it('when built, then it is OpenAPI 3.1 and every documented response schema compiles with its refs resolved', () => {
    const document = buildOpenApiDocument({ serverUrl: 'https://api.example' });
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://api.example' }]);
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, JsonObject> }>>;
    let checked = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses)) {
          // Throws when a $ref does not resolve; the result itself is irrelevant here.
          expect(() => validateAgainstOpenApi(method, path, Number(status), {})).not.toThrow();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('when two fragments define the same operation or component, then building fails', () => {
    const a: OpenApiFragment = { paths: { '/x': { get: { responses: {} } } } };
    expect(() => buildOpenApiDocument({ fragments: [a, a] })).toThrow('GET /x is defined by two fragments');
    const s: OpenApiFragment = { components: { schemas: { Thing: { type: 'object' } } } };
    expect(() => buildOpenApiDocument({ fragments: [s, s] })).toThrow('components.schemas.Thing');
  });
});

describe('validateAgainstOpenApi', () => {
  it('when a body matches the documented schema, then it is valid; when a field is missing or extra, then the errors say where', () => {
    const merchant = { id: '0190a6b2-aaaa-7bbb-8ccc-123456789abc', name: 'Shop', card_data_access: false, created_at: '2026-01-01T00:00:00.000Z' };
    expect(validateAgainstOpenApi('GET', '/admin/merchants/{merchant_id}', 200, merchant)).toEqual({ valid: true, errors: [] });
    const missing = validateAgainstOpenApi('GET', '/admin/merchants/{merchant_id}', 200, { ...merchant, name: undefined });
    expect(missing.valid).toBe(false);
    expect(missing.errors.join()).toContain('name');
    expect(validateAgainstOpenApi('GET', '/admin/merchants/{merchant_id}', 200, { ...merchant, api_key: 'sk_test_x' }).valid).toBe(false);
  });

  it('when an error status is documented by reference, then the Problem schema applies', () => {
    expect(validateAgainstOpenApi('GET', '/admin/merchants/{merchant_id}', 404, problem).valid).toBe(true);
    expect(validateAgainstOpenApi('GET', '/admin/merchants/{merchant_id}', 404, { ...problem, request_id: undefined }).valid).toBe(false);
  });

  it('when the operation or the status is not documented, then it is invalid', () => {
    expect(validateAgainstOpenApi('PATCH', '/admin/merchants', 200, {}).errors).toEqual(['PATCH /admin/merchants is not documented']);
    expect(validateAgainstOpenApi('GET', '/admin/merchants', 418, {}).valid).toBe(false);
  });

  it('when a list page is checked, then the envelope and its items are validated', () => {
    const page = { object: 'list', data: [], has_more: false, next_cursor: null };
    expect(validateAgainstOpenApi('GET', '/admin/merchants', 200, page).valid).toBe(true);
    expect(validateAgainstOpenApi('GET', '/admin/merchants', 200, { ...page, data: [{ id: 'not-a-uuid' }] }).valid).toBe(false);
  });
});
