import { deflateSync } from 'node:zlib';
import { validateAgainstOpenApi } from '@vaultline/contracts';
import { MERCHANT, OTHER_MERCHANT, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession } from './checkout-helpers';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND; CRCs left zero: only the signature is read). */
export function aPng(extraBytes = 0): Buffer {
  const chunk = (type: string, data: Buffer) => Buffer.concat([Buffer.alloc(4), Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('tEXt', Buffer.alloc(extraBytes)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function fetchPublic(vault: VaultHarness, path: string) {
  const token = vault.signerFor('gateway').sign('vault', { merchantId: PUBLIC.merchantId, scopes: PUBLIC.scopes });
  const response = await fetch(`${vault.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("the hosted page's look, as the merchant sets it (GET/PATCH /settings/checkout)", () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  it('when nothing was set, then the settings read all null and the page gets no name, colour or logo', async () => {
    const answer = await vault.call(OTHER_MERCHANT, 'GET', '/settings/checkout');
    expect(answer.body).toEqual({ object: 'checkout_settings', display_name: null, brand_color: null, button_text_color: null, logo: null, updated_at: null });
    const { sessionId } = await openSession(vault, { merchantId: OTHER_MERCHANT.merchantId });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.merchant).toEqual({
      display_name: null,
      brand_color: null,
      button_text_color: null,
      logo_url: null,
    });
  });

  it('when the merchant sets a name, a light colour and an https logo, then the page gets them with black button text and may load images from that host only', async () => {
    const saved = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', {
      display_name: '  Acme   Coffee ',
      brand_color: '#FFD60A',
      logo_url: 'https://cdn.acme.example/brand/logo.png',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      display_name: 'Acme Coffee',
      brand_color: '#ffd60a',
      button_text_color: '#000000',
      logo: { type: 'url', url: 'https://cdn.acme.example/brand/logo.png' },
    });
    const { sessionId } = await openSession(vault);
    const status = await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`);
    expect(status.body.merchant).toEqual({
      display_name: 'Acme Coffee',
      brand_color: '#ffd60a',
      button_text_color: '#000000',
      logo_url: 'https://cdn.acme.example/brand/logo.png',
    });
    const page = await fetchPublic(vault, `/checkout/${sessionId}`);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data: https://cdn.acme.example;");
  });

  it('when only the colour changes, then the name and logo stay, and a dark colour gets white button text', async () => {
    await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { display_name: 'Acme Coffee', logo_url: 'https://cdn.acme.example/logo.png' });
    const saved = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { brand_color: '#1d4ed8' });
    expect(saved.body).toMatchObject({ display_name: 'Acme Coffee', brand_color: '#1d4ed8', button_text_color: '#ffffff', logo: { type: 'url' } });
  });

  it("when another merchant reads the settings or opens a session, then it sees none of this merchant's look", async () => {
    await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { display_name: 'Acme Coffee' });
    expect((await vault.call(OTHER_MERCHANT, 'GET', '/settings/checkout')).body.display_name).toBeNull();
    const { sessionId } = await openSession(vault, { merchantId: OTHER_MERCHANT.merchantId });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.merchant).toMatchObject({ display_name: null });
  });

  it.each([
    [{ brand_color: 'blue' }, 'brand_color'],
    [{ brand_color: '#12345' }, 'brand_color'],
    [{ display_name: '' }, 'display_name'],
    [{ display_name: 'x'.repeat(61) }, 'display_name'],
    [{ display_name: 'Acme\u202eeohS' }, 'display_name'],
    [{ logo_url: 'http://cdn.acme.example/logo.png' }, 'logo_url'],
    [{ logo_url: 'javascript:alert(1)' }, 'logo_url'],
    [{ logo_url: 'https://user:pw@cdn.acme.example/logo.png' }, 'logo_url'],
    [{ logo_image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64') }, 'logo_image'],
    [{ logo_image: 'not base64!' }, 'logo_image'],
    [{ logo_image: aPng(70 * 1024).toString('base64') }, 'logo_image'],
    [{ logo_url: 'https://cdn.acme.example/a.png', logo_image: aPng().toString('base64') }, 'logo_image'],
  ])('when the merchant sends %j, then it answers 422 naming %s and nothing changes', async (body, field) => {
    await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { display_name: 'Before', brand_color: '#000000' });
    const answer = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', body);
    expect([answer.status, answer.body.code, answer.body.field]).toEqual([422, 'validation_failed', field]);
    expect((await vault.call(MERCHANT, 'GET', '/settings/checkout')).body).toMatchObject({ display_name: 'Before', brand_color: '#000000' });
  });

  it('when an unknown field is sent, then it answers 422 and names it', async () => {
    const answer = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { font: 'Comic Sans' });
    expect(answer.status).toBe(422);
  });

  it("when the merchant uploads a PNG logo, then the page loads it from the vault's own origin, served as an image that can run nothing", async () => {
    const png = aPng();
    const saved = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { logo_image: png.toString('base64') });
    expect(saved.body.logo).toEqual({ type: 'image', content_type: 'image/png', size_bytes: png.length });
    const { sessionId } = await openSession(vault);
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.merchant).toMatchObject({ logo_url: `/sessions/${sessionId}/logo` });
    const logo = await fetchPublic(vault, `/sessions/${sessionId}/logo`);
    expect(logo.status).toBe(200);
    expect(logo.bytes.equals(png)).toBe(true);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logo.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const page = await fetchPublic(vault, `/checkout/${sessionId}`);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
  });

  it("when the logo is removed, then the session's logo answers 404", async () => {
    await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { logo_image: aPng().toString('base64') });
    const removed = await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { logo_image: null });
    expect(removed.body.logo).toBeNull();
    const { sessionId } = await openSession(vault);
    expect((await fetchPublic(vault, `/sessions/${sessionId}/logo`)).status).toBe(404);
  });

  it('when the settings are read and changed, then every answer matches the OpenAPI document, the session status too', async () => {
    const answers: Array<[string, string, number, unknown]> = [];
    const record = (method: string, path: string, answer: { status: number; body: unknown }) => answers.push([method, path, answer.status, answer.body]);
    record(
      'PATCH',
      '/settings/checkout',
      await vault.call(MERCHANT, 'PATCH', '/settings/checkout', {
        display_name: 'Acme Coffee',
        brand_color: '#1d4ed8',
        logo_url: 'https://cdn.acme.example/logo.png',
      }),
    );
    record('GET', '/settings/checkout', await vault.call(MERCHANT, 'GET', '/settings/checkout'));
    record('PATCH', '/settings/checkout', await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { logo_image: aPng().toString('base64') }));
    record('PATCH', '/settings/checkout', await vault.call(MERCHANT, 'PATCH', '/settings/checkout', { brand_color: 'red' }));
    const { sessionId } = await openSession(vault, { description: 'Order 1001', locale: 'it' });
    record('GET', '/sessions/{session_id}/status', await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`));
    for (const [method, path, status, body] of answers)
      expect({ method, path, status, ...validateAgainstOpenApi(method, path, status, body) }).toEqual({ method, path, status, valid: true, errors: [] });
  });

  it('when a caller without the merchant scope asks for the settings, then it is refused', async () => {
    expect((await vault.call(PUBLIC, 'GET', '/settings/checkout')).status).toBe(403);
  });
});

describe('what the payment tells the page: its description and locale', () => {
  let vault: VaultHarness;
  beforeAll(async () => {
    vault = await startVault();
  });
  afterAll(() => vault.stop());

  it('when the session carries a description and a locale, then the status gives both to the page', async () => {
    const { sessionId } = await openSession(vault, { description: '2 × Ethiopia Guji, 250 g', locale: 'de-ch' });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body).toMatchObject({ description: '2 × Ethiopia Guji, 250 g', locale: 'de-CH' });
  });

  it('when the event carries a locale the page does not speak, then it is dropped and the browser decides', async () => {
    const { sessionId } = await openSession(vault, { locale: 'pt-BR' });
    expect((await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body).toMatchObject({ description: null, locale: null });
  });
});
