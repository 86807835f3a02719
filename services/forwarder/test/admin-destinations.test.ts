import { randomUUID } from 'node:crypto';
import { validateAgainstOpenApi } from '@vaultline/contracts/src/openapi';
import { startForwarder } from './forwarder-harness';

describe('/admin/destinations', () => {
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  const merchant = randomUUID();
  beforeAll(async () => {
    forwarder = await startForwarder({ FORWARD_HTTPS_ONLY: 'true' });
  });
  afterAll(async () => forwarder?.stop());
  const admin = (method: string, path: string, body?: unknown) =>
    forwarder.call(
      '__system__',
      ['admin'],
      method,
      path,
      body === undefined ? {} : { 'content-type': 'application/json' },
      body === undefined ? undefined : JSON.stringify(body),
    );

  it('when an operator adds, lists and removes a merchant destination, then each answer matches the OpenAPI document', async () => {
    const created = await admin('POST', '/admin/destinations', { merchant_id: merchant, url: 'https://psp.example.com/v2/payments' });
    expect(created.status).toBe(201);
    expect(validateAgainstOpenApi('post', '/admin/forwarder/destinations', 201, created.json())).toEqual({ valid: true, errors: [] });

    const listed = await admin('GET', `/admin/destinations?merchant_id=${merchant}`);
    expect(listed.json()).toMatchObject({ object: 'list', data: [{ url: 'https://psp.example.com/v2/payments', merchant_id: merchant }] });
    expect(validateAgainstOpenApi('get', '/admin/forwarder/destinations', 200, listed.json()).valid).toBe(true);

    const removed = await admin('DELETE', `/admin/destinations/${String(created.json().id)}?merchant_id=${merchant}`);
    expect(removed.status).toBe(204);
    expect((await admin('GET', `/admin/destinations?merchant_id=${merchant}`)).json().data).toEqual([]);
  });

  it('when an operator adds a destination with its own card fields and a mode, then both are kept and shown, matching the OpenAPI document', async () => {
    const created = await admin('POST', '/admin/destinations', {
      merchant_id: merchant,
      url: 'https://psp.example.com/v3/charge',
      card_fields: { 'card.pan': 'account_number' },
      mode: 'live',
    });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ card_fields: { 'card.pan': 'account_number' }, mode: 'live' });
    expect(validateAgainstOpenApi('post', '/admin/forwarder/destinations', 201, created.json())).toEqual({ valid: true, errors: [] });
  });

  it('when a card field names something other than a placeholder, then adding answers 422 naming card_fields', async () => {
    const response = await admin('POST', '/admin/destinations', {
      merchant_id: merchant,
      url: 'https://psp.example.com/v4/charge',
      card_fields: { 'card.holder': 'cardholder_name' },
    });
    expect(response.status).toBe(422);
    expect(String(response.json().field)).toMatch(/^card_fields/);
  });

  it.each([
    ['an IP literal', 'https://52.1.2.3/pay'],
    ['plain http while https is required', 'http://psp.example.com/pay'],
    ['userinfo', 'https://user@psp.example.com/pay'],
    ['a dot segment', 'https://psp.example.com/a/../pay'],
  ])('when the URL has %s, then adding answers 422 invalid_destination on field url', async (_what, url) => {
    const response = await admin('POST', '/admin/destinations', { merchant_id: merchant, url });
    expect(response.status).toBe(422);
    expect(response.json()).toMatchObject({ code: 'invalid_destination', field: 'url' });
  });

  it('when a merchant token calls the admin API, then it answers 403 insufficient_scope', async () => {
    const response = await forwarder.call(merchant, ['merchant'], 'GET', `/admin/destinations?merchant_id=${merchant}`);
    expect(response.status).toBe(403);
  });
});
