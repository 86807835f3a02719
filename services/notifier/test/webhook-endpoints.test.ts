import { ENDPOINTS } from '../src/data/collections';
import type { WebhookEndpoint } from '../src/domain/webhook-endpoint';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { paymentCapturedV1 } from '@vaultline/contracts';
import { startNotifier, type Harness } from './support/notifier-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { aPayment } from './support/events';
import { expectDocumented } from './support/openapi';

const MERCHANT = 'm_endpoints';

describe('webhook endpoints API', () => {
  let notifier: Harness;
  beforeAll(async () => {
    notifier = await startNotifier();
  });
  afterAll(() => notifier.stop());

  it('when an endpoint is created, then it answers 201 with a whsec_ secret shown once and stores the secret only sealed', async () => {
    const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['payment.captured', 'import.completed'],
      description: 'orders',
    });
    expect(created.status).toBe(201);
    expectDocumented('POST', '/webhook-endpoints', created);
    expect(created.body).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['payment.captured', 'import.completed'], enabled: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
    expect(typeof created.body.created_at).toBe('string');

    const fetched = await notifier.call(MERCHANT, 'GET', `/webhook-endpoints/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.secret).toBeUndefined();
    expectDocumented('GET', '/webhook-endpoints/{endpoint_id}', fetched);
    const listed = await notifier.call(MERCHANT, 'GET', '/webhook-endpoints');
    expectDocumented('GET', '/webhook-endpoints', listed);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const stored = await notifier.store.collection<WebhookEndpoint>(ENDPOINTS).get({ merchantId: MERCHANT, mode: 'test' }, created.body.id);
    const key = created.body.secret.slice('whsec_'.length);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored?.secrets[0]?.sealed).toBeTruthy();
  });

  it('when another merchant asks for the endpoint, then it answers 404 webhook_endpoint_not_found', async () => {
    const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/a' });
    const other = await notifier.call('m_other', 'GET', `/webhook-endpoints/${created.body.id}`);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('webhook_endpoint_not_found');
    expectDocumented('GET', '/webhook-endpoints/{endpoint_id}', other);
    expect((await notifier.call('m_other', 'DELETE', `/webhook-endpoints/${created.body.id}`)).status).toBe(404);
  });

  it('when the event list names an unknown type, then it answers 422 naming the events field', async () => {
    const response = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/a', events: ['payment.refunded'] });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'unknown_event_type', field: 'events' });
    expectDocumented('POST', '/webhook-endpoints', response);
  });

  it('when the caller lacks the merchant scope, then it answers 403', async () => {
    const response = await notifier.call(MERCHANT, 'GET', '/webhook-endpoints', undefined, ['public']);
    expect(response.status).toBe(403);
  });

  it('when an endpoint is patched and deleted, then the changes show and it is gone afterwards', async () => {
    const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/b' });
    const patched = await notifier.call(MERCHANT, 'PATCH', `/webhook-endpoints/${created.body.id}`, {
      url: 'http://127.0.0.1:9/c',
      events: ['payment.failed'],
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expectDocumented('PATCH', '/webhook-endpoints/{endpoint_id}', patched);
    expect(patched.body).toMatchObject({ url: 'http://127.0.0.1:9/c', events: ['payment.failed'], enabled: false, disabled_reason: 'manual' });
    const reenabled = await notifier.call(MERCHANT, 'PATCH', `/webhook-endpoints/${created.body.id}`, { enabled: true });
    expect(reenabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await notifier.call(MERCHANT, 'PATCH', `/webhook-endpoints/${created.body.id}`, {})).status).toBe(422);

    const deleted = await notifier.call(MERCHANT, 'DELETE', `/webhook-endpoints/${created.body.id}`);
    expect(deleted.body).toEqual({ id: created.body.id, object: 'webhook_endpoint', deleted: true });
    expectDocumented('DELETE', '/webhook-endpoints/{endpoint_id}', deleted);
    expect((await notifier.call(MERCHANT, 'GET', `/webhook-endpoints/${created.body.id}`)).status).toBe(404);
  });

  it('when the secret is rotated, then a new secret is returned and the previous one expires after the grace period', async () => {
    const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/d' });
    const rotated = await notifier.call(MERCHANT, 'POST', `/webhook-endpoints/${created.body.id}/rotate-secret`, { grace_period_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expectDocumented('POST', '/webhook-endpoints/{endpoint_id}/rotate-secret', rotated);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const expiresIn = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
  });
});

describe('webhook endpoint URLs in production (WEBHOOK_ALLOW_PRIVATE_URLS unset, the service reachable from outside)', () => {
  let notifier: Harness;
  beforeAll(async () => {
    notifier = await startNotifier({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false', HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://vault.example.com' } });
  });
  afterAll(() => notifier.stop());

  it.each([
    ['plain http', 'http://example.com/hooks'],
    ['a loopback address', 'https://127.0.0.1/hooks'],
    ['a private address', 'https://10.1.2.3/hooks'],
    ['a disguised loopback address', 'https://0x7f.1/hooks'],
    ['an IPv4-mapped loopback address', 'https://[::ffff:127.0.0.1]/hooks'],
    ['credentials in the URL', 'https://user:pw@example.com/hooks'],
  ])('when the URL uses %s, then it answers 422 url_not_allowed on the url field', async (_name, url) => {
    const response = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'url_not_allowed', field: 'url' });
  });

  it('when the URL is plain http or private, then the refusal names WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    for (const url of ['http://example.com/hooks', 'https://10.1.2.3/hooks']) {
      expect((await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url })).body.detail).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true');
    }
  });

  it('when the URL is https on a public address, then it is accepted; patching it to a private address answers 422 and keeps it', async () => {
    const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'https://93.184.216.34/hooks' });
    expect(created.status).toBe(201);
    const patched = await notifier.call(MERCHANT, 'PATCH', `/webhook-endpoints/${created.body.id}`, { url: 'https://192.168.1.1/' });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ code: 'url_not_allowed', field: 'url' });
    expect((await notifier.call(MERCHANT, 'GET', `/webhook-endpoints/${created.body.id}`)).body.url).toBe('https://93.184.216.34/hooks');
  });

  it('when a test key registers http://localhost, then the refusal says the service does not run on loopback and names WEBHOOK_ALLOW_PRIVATE_URLS and vaultline listen', async () => {
    const response = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'http://localhost:4242/webhooks/vaultline' });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('url_not_allowed');
    expect(response.body.detail).toMatch(/must use https/);
    expect(response.body.detail).toMatch(/only while the service runs on loopback/);
    expect(response.body.detail).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true');
    expect(response.body.detail).toContain('vaultline listen --forward-to');
  });
});

describe('webhook endpoint URLs on a service that runs on loopback (pnpm start: HOST 127.0.0.1, PUBLIC_BASE_URL http://localhost:…)', () => {
  let notifier: Harness;
  let receiver: WebhookReceiver;
  const live = { merchantId: MERCHANT, mode: 'live' as const };
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false', HOST: '127.0.0.1', PUBLIC_BASE_URL: 'http://localhost:8080' } });
  });
  afterAll(async () => {
    await notifier.stop();
    await receiver.close();
  });

  it.each(['http://localhost:4242/webhooks/vaultline', 'http://127.0.0.1:4242/hooks', 'http://[::1]:4242/hooks', 'https://localhost/hooks'])(
    'when a test key registers %s, then it is accepted',
    async (url) => {
      const created = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ url, livemode: false });
    },
  );

  it('when a live key registers http://localhost, then it answers 422 url_not_allowed saying live endpoints are never loopback receivers', async () => {
    const response = await notifier.call(live, 'POST', '/webhook-endpoints', { url: 'http://localhost:4242/webhooks/vaultline' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'url_not_allowed', field: 'url' });
    expect(response.body.detail).toMatch(/live-mode endpoint is never a loopback receiver/);
    expect(response.body.detail).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
  });

  it.each([
    ['plain http to a public host', 'http://example.com/hooks'],
    ['a private address', 'http://10.1.2.3/hooks'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['the unspecified address', 'http://0.0.0.0:4242/hooks'],
  ])('when a test key registers %s, then it is still refused (only loopback opens up)', async (_name, url) => {
    const response = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('url_not_allowed');
  });

  it('when a test key patches a live-looking URL to localhost, then it is accepted; a live endpoint patched to localhost is refused', async () => {
    const testEndpoint = await notifier.call(MERCHANT, 'POST', '/webhook-endpoints', { url: 'https://93.184.216.34/hooks' });
    expect((await notifier.call(MERCHANT, 'PATCH', `/webhook-endpoints/${testEndpoint.body.id}`, { url: 'http://localhost:4242/hooks' })).status).toBe(200);
    const liveEndpoint = await notifier.call(live, 'POST', '/webhook-endpoints', { url: 'https://93.184.216.34/hooks' });
    expect(liveEndpoint.status).toBe(201);
    expect((await notifier.call(live, 'PATCH', `/webhook-endpoints/${liveEndpoint.body.id}`, { url: 'http://localhost:4242/hooks' })).status).toBe(422);
  });

  it('when a test event is recorded, then a test endpoint on localhost receives it signed, through the loopback-only egress', async () => {
    const merchant = 'm_loopback_delivery';
    const url = receiver.on('/local-shop', () => ({ status: 204 })).replace('127.0.0.1', 'localhost');
    const created = await notifier.call(merchant, 'POST', '/webhook-endpoints', { url, events: ['payment.captured'] });
    expect(created.status).toBe(201);
    const eventId = await notifier.publish(paymentCapturedV1, merchant, aPayment());
    const delivered = await waitFor(() => receiver.received.find((r) => r.path === '/local-shop') ?? null, 20_000);
    const event = new Webhook(created.body.secret).verify(delivered.body, delivered.headers) as { type: string };
    expect(event.type).toBe('payment.captured');
    expect(eventId).toBeTruthy();
  });
});
