import { buildOpenApiDocument } from './document';
import { validateAgainstOpenApi } from './validate-response';
import type { JsonObject, OpenApiFragment } from './openapi-fragment';

const problem = {
  type: 'https://vaultline.internal/docs/errors#merchant_not_found',
  title: 'Not Found',
  status: 404,
  detail: 'No such merchant.',
  code: 'merchant_not_found',
  request_id: 'r1',
};

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

  it('when built, then every merchant POST takes Idempotency-Key and documents its problem codes and Idempotent-Replayed; admin and public POSTs do not', () => {
    const paths = {
      ...(buildOpenApiDocument().paths as object),
      ...(buildOpenApiDocument({ audience: 'admin' }).paths as object),
    } as Record<string, Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, JsonObject> }>>;
    const takesKey = (path: string) => (paths[path]!.post!.parameters ?? []).some((parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey');
    for (const path of ['/tokens', '/cde-import', '/forward', '/tokens/imports', '/webhook-endpoints']) {
      expect({ path, takesKey: takesKey(path) }).toEqual({ path, takesKey: true });
      const responses = paths[path]!.post!.responses;
      expect(responses['409']!.description).toContain('idempotency_key_in_use');
      expect(responses['422']!.description).toContain('idempotency_key_reused');
      expect(responses['400']!.description).toContain('invalid_idempotency_key');
    }
    expect(JSON.stringify(paths['/tokens']!.post!.responses['201'])).toContain('Idempotent-Replayed');
    expect(paths['/forward']!.post!.responses['422']!.description).toContain('security_code_expired');
    for (const path of ['/admin/merchants', '/sessions/{session_id}/card']) expect({ path, takesKey: takesKey(path) }).toEqual({ path, takesKey: false });
    // Built twice from the same fragments: the header is declared once, not once per build.
    expect((buildOpenApiDocument().paths as typeof paths)['/tokens']!.post!.parameters!.filter((p) => p.$ref?.endsWith('/IdempotencyKey'))).toHaveLength(1);
  });

  it('when the merchant and the admin documents are built, then each holds its own paths and exactly the components those use', () => {
    const merchant = buildOpenApiDocument();
    const admin = buildOpenApiDocument({ audience: 'admin' });
    const merchantPaths = Object.keys(merchant.paths as object);
    const adminPaths = Object.keys(admin.paths as object);
    expect(merchantPaths.filter((path) => path.startsWith('/admin'))).toEqual([]);
    expect(adminPaths.length).toBeGreaterThan(5);
    expect(adminPaths.every((path) => path.startsWith('/admin/'))).toBe(true);
    expect(merchantPaths).toContain('/payments/one-off');
    expect(admin.security).toEqual([{ AdminKey: [] }]);
    expect(Object.keys((admin.components as { schemas: object }).schemas)).not.toContain('Payment');
    expect(Object.keys((merchant.components as { schemas: object }).schemas)).not.toContain('OperatorWithAdminKey');
    for (const document of [merchant, admin]) {
      const text = JSON.stringify({ paths: document.paths, components: document.components });
      for (const [kind, named] of Object.entries(document.components as Record<string, Record<string, unknown>>)) {
        for (const name of Object.keys(named)) {
          const used = kind === 'securitySchemes' ? JSON.stringify(document).includes(`"${name}":[]`) : text.includes(`"#/components/${kind}/${name}"`);
          expect({ kind, name, used }).toEqual({ kind, name, used: true });
        }
      }
    }
  });

  it("when no server URL is given, then the server is the deployment's PUBLIC_BASE_URL as a variable, not localhost", () => {
    expect(JSON.stringify(buildOpenApiDocument().servers)).not.toContain('localhost');
    expect((buildOpenApiDocument().servers as Array<{ url: string }>)[0]!.url).toBe('{public_base_url}');
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
