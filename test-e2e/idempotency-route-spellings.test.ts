import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { startLocal, type LocalSystem } from '@vaultline/launcher';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { startRedisServer } from '@vaultline/testing';
import { ADMIN_API_KEY, MERCHANT_API_KEY, MerchantApi, PROFILES, startSystem, type RunningProfile, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, sessionOf, submitCard, type PaymentView } from './support/payment-scenario';
import { freshIdempotencyKey } from './support/forward-scenario';

/**
 * One Idempotency-Key, whatever the spelling of the route (issue #33): the router takes `/payments/one-off`,
 * `/payments/one-off/`, `/payments/ONE-OFF` and `/payments/One-Off/` for one route, so one key sent to all
 * four is one request. The service keys its records by the route's name, in both profiles (the embedded one
 * mounts the routes in the gateway, the local one reaches them over HTTP), and so do the payment
 * orchestrator's own request records committed with the payment.
 */
const ONE_OFF_SPELLINGS = ['/payments/one-off', '/payments/one-off/', '/payments/ONE-OFF', '/payments/One-Off/'];
const refundSpellings = (paymentId: string) => [
  `/payments/${paymentId}/refunds`,
  `/payments/${paymentId}/refunds/`,
  `/payments/${paymentId}/REFUNDS`,
  `/payments/${paymentId}/Refunds/`,
];

async function paymentsWithReference(merchant: MerchantApi, reference: string): Promise<PaymentView[]> {
  const answer = await merchant.call('GET', `/payments?reference=${encodeURIComponent(reference)}&limit=100`);
  if (answer.status !== 200) throw new Error(`GET /payments answered ${answer.status}: ${answer.text}`);
  return answer.json<{ data: PaymentView[] }>().data;
}

async function refundsOf(merchant: MerchantApi, paymentId: string): Promise<Array<{ id: string }>> {
  return (await new PaymentsApi(merchant).ok<{ data: Array<{ id: string }> }>('GET', '/payments/{payment_id}/refunds', { params: { payment_id: paymentId } }))
    .data;
}

async function capturedPayment(baseUrl: string, merchant: MerchantApi, reference: string): Promise<PaymentView> {
  const api = new PaymentsApi(merchant);
  const created = await api.ok('POST', '/payments/one-off', { json: { amount: 1999, currency_code: 'EUR', reference, source: { type: 'vaultline' } } });
  await submitCard(baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
  return api.until(created.id, 'captured', 60_000);
}

const oneOff = (reference: string) => ({ amount: 1999, currency_code: 'EUR', reference, source: { type: 'vaultline' } });

describe.each(PROFILES)('Idempotency-Key and the spelling of the route, %s', (_profile, start) => {
  let running: RunningProfile;
  beforeAll(async () => {
    running = await start({ ...PAYMENT_ENV }, 'vaultline-spellings-');
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('when one key creates a payment at /payments/one-off, /payments/one-off/, /payments/ONE-OFF and /payments/One-Off/, then one payment is made and every answer is the first one, three of them replayed', async () => {
    const key = freshIdempotencyKey();
    const reference = `spelled-${key}`;

    const answers = [];
    for (const path of ONE_OFF_SPELLINGS)
      answers.push(await running.merchant.call('POST', path, { json: oneOff(reference), headers: { 'Idempotency-Key': key } }));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true', 'true']);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(await paymentsWithReference(running.merchant, reference)).toHaveLength(1);
  });

  it('when one key refunds a captured payment at its refunds route spelled four ways, then one refund is made', async () => {
    const payment = await capturedPayment(running.baseUrl, running.merchant, `refunded-${freshIdempotencyKey()}`);
    const key = freshIdempotencyKey();

    const answers = [];
    for (const path of refundSpellings(payment.id))
      answers.push(await running.merchant.call('POST', path, { json: { amount: 100 }, headers: { 'Idempotency-Key': key } }));

    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json<{ id: string }>().id)).size).toBe(1);
    expect(await refundsOf(running.merchant, payment.id)).toHaveLength(1);
  }, 90_000);

  it('when the key comes again on another spelling with another body, then it answers 422 idempotency_key_reused and makes nothing', async () => {
    const key = freshIdempotencyKey();
    const reference = `reused-${key}`;
    await running.merchant.call('POST', '/payments/one-off', { json: oneOff(reference), headers: { 'Idempotency-Key': key } });

    const reused = await running.merchant.call('POST', '/payments/ONE-OFF/', {
      json: { ...oneOff(reference), amount: 2999 },
      headers: { 'Idempotency-Key': key },
    });

    expect({ status: reused.status, code: reused.json<{ code: string }>().code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
    expect(await paymentsWithReference(running.merchant, reference)).toHaveLength(1);
  });
});

describe('Idempotency-Key records in the TTL store (Redis), embedded profile', () => {
  let running: RunningSystem;
  let redis: Redis;
  let stopRedis: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const server = await startRedisServer();
    stopRedis = () => server.stop();
    redis = new Redis(server.url);
    running = await startSystem({ ...PAYMENT_ENV, TTL_URL: server.url }, 'vaultline-idempotency-records-');
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
    redis?.disconnect();
    await stopRedis();
  });

  /** Every string value in Redis: the records, and whatever else the services keep there. */
  async function storedValues(): Promise<string[]> {
    const values: string[] = [];
    for (const key of await redis.keys('*')) if ((await redis.type(key)) === 'string') values.push((await redis.get(key)) ?? '');
    return values;
  }

  it('when a card is tokenized with an Idempotency-Key (POST /tokens carries the card number), then no stored fingerprint is a plain SHA-256 of the body, and no record holds the card number', async () => {
    const body = JSON.stringify({ card: { number: '4111111111111111', exp_month: 3, exp_year: 2030, cvc: '737' } });
    const answer = await running.merchant.call('POST', '/tokens', {
      body,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': freshIdempotencyKey() },
    });
    expect(answer.status).toBe(201);

    const records = (await storedValues())
      .filter((value) => value.includes('"fingerprint"'))
      .map((value) => JSON.parse(value) as { fingerprint: string; state: string });
    expect(records.map((record) => record.state)).toEqual(['done']);
    const digest = createHash('sha256').update(body).digest();
    const unkeyed = [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
    for (const record of records) expect(unkeyed).not.toContain(record.fingerprint);
    for (const value of await storedValues()) expect(value).not.toContain('4111111111111111');
  });

  it("when the records are lost (the store emptied between two spellings), then the orchestrator's request keys, committed with the payment by the route's name, still answer with the one payment", async () => {
    const key = freshIdempotencyKey();
    const reference = `lost-records-${key}`;

    const first = await running.merchant.call('POST', '/payments/one-off', { json: oneOff(reference), headers: { 'Idempotency-Key': key } });
    await redis.flushdb();
    const again = await running.merchant.call('POST', '/payments/One-Off/', { json: oneOff(reference), headers: { 'Idempotency-Key': key } });

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    expect(await paymentsWithReference(running.merchant, reference)).toHaveLength(1);
  });
});

describe('Idempotency-Key across the replicas of one service, local profile (pnpm start:local, two vault processes)', () => {
  let system: LocalSystem;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-idempotency-replicas-'));
    system = await startLocal({
      dataDir,
      port: 0,
      stdio: 'files',
      replicas: { vault: 2 },
      env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'warn' },
    });
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the vault replica that tokenized a card is gone, then the other replica replays its answer to the same key (the launcher hands both one fingerprint key)', async () => {
    const merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
    const key = freshIdempotencyKey();
    const body = JSON.stringify({ card: { number: '4111111111111111', exp_month: 3, exp_year: 2030, cvc: '737' } });
    const send = () => merchant.call('POST', '/tokens', { body, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key } });
    const first = await send();
    expect(first.status).toBe(201);

    await system.terminate('vault', 0);
    // The gateway's connection to the replica that went away may answer one 503 (nothing reached a vault: the key stays free to replay).
    let again = await send();
    for (let attempt = 0; again.status === 503 && attempt < 20; attempt++) again = await send();

    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), body: again.text }).toEqual({
      status: 201,
      replayed: 'true',
      body: first.text,
    });
  }, 60_000);
});

/** Merchant POSTs of the OpenAPI document (the API key's security, or the document's default), but those documented as not taking the key. */
function merchantPosts(): string[] {
  const paths = buildOpenApiDocument().paths as Record<string, { post?: { security?: Array<Record<string, unknown>>; description?: string } }>;
  return Object.entries(paths)
    .filter(([, item]) => item.post && (item.post.security === undefined || item.post.security.some((requirement) => 'ApiKey' in requirement)))
    .filter(([, item]) => !(item.post!.description ?? '').includes('Idempotency-Key is not applied'))
    .map(([template]) => template.replace(/\{[^}]+\}/g, '0190f2a4-0000-7000-8000-000000000001'));
}

describe('every merchant POST of the OpenAPI document, embedded profile', () => {
  let running: RunningSystem;
  beforeAll(async () => {
    running = await startSystem({ ...PAYMENT_ENV }, 'vaultline-idempotent-posts-');
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('when a POST is sent twice with one key (a body its route refuses, or a resource that does not exist), then the second answer is the first one, replayed', async () => {
    const posts = merchantPosts();
    expect(posts).toEqual(
      expect.arrayContaining(['/tokens', '/forward', '/cde-import', '/tokens/imports', '/webhook-endpoints', '/payments/one-off', '/flows']),
    );
    const notReplayed: string[] = [];
    for (const path of posts) {
      const key = freshIdempotencyKey();
      const send = () => running.merchant.call('POST', path, { json: {}, headers: { 'Idempotency-Key': key } });
      const first = await send();
      const second = await send();
      if (second.headers.get('idempotent-replayed') !== 'true' || second.status !== first.status || second.text !== first.text)
        notReplayed.push(`${path}: ${first.status} then ${second.status} ${second.text.slice(0, 120)}`);
    }
    expect(notReplayed).toEqual([]);
  });
});
