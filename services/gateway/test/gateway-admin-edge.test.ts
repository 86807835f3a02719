import { firstIdAt, newId, waitFor } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { loadGatewayConfig } from '../src/config';
import { StoreAdminAuditRepository } from '../src/data/admin-audit.repository';
import { gatewayCollections } from '../src/data/collections';
import { pruneAdminAudit } from '../src/domain/admin-audit';
import type { AdminAuditEntry } from '../src/domain/admin-audit-entry';
import { AUDITED_PATH_LENGTH } from '../src/domain/admin-audit';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { call, expectDocumented, expectProblem } from './support/http-call';

let upstreams: Upstreams;

beforeAll(async () => {
  upstreams = await startUpstreams();
});

afterAll(async () => {
  await upstreams.close();
});

const WRONG_KEY = 'admin_guess_0000000000000000000000000000';

async function auditEntries(store: MemoryDocumentStore): Promise<AdminAuditEntry[]> {
  return (await new StoreAdminAuditRepository(store).list({}, { limit: 100, order: 'desc' })).items;
}

describe('the admin edge under a flood of guesses', () => {
  let gateway: RunningGateway;
  let store: MemoryDocumentStore;

  beforeEach(async () => {
    store = new MemoryDocumentStore();
    gateway = await startGateway(upstreams, store, { ADMIN_REFUSALS_PER_MINUTE: '5' });
  });

  afterEach(async () => {
    await gateway.close();
  });

  it('when an address had ADMIN_REFUSALS_PER_MINUTE refusals in its minute, then its next admin requests answer 429 too_many_refusals with Retry-After, even with the right key', async () => {
    for (let guess = 0; guess < 5; guess++)
      expectProblem(await call(gateway.url, '/admin/merchants', { headers: { 'x-admin-key': WRONG_KEY } }), 401, 'invalid_admin_key');

    const limited = await call(gateway.url, '/admin/merchants', { headers: { 'x-admin-key': WRONG_KEY } });
    expectProblem(limited, 429, 'too_many_refusals');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectProblem(await call(gateway.url, '/admin/merchants', { headers: { 'x-admin-key': ADMIN_KEY } }), 429, 'too_many_refusals');
    // The merchant API is not the admin edge: its own limits apply.
    expect((await call(gateway.url, '/health')).status).toBe(200);
  });

  it('when an operator uses the right key, then its requests do not count against its address', async () => {
    for (let request = 0; request < 8; request++)
      expect((await call(gateway.url, '/admin/operators', { headers: { 'x-admin-key': ADMIN_KEY } })).status).toBe(200);
  });

  it('when 60 wrong keys are sent, then they are counted in vaultline_admin_refused_total and the audit holds one entry per address, minute and status with their count', async () => {
    const answers: number[] = [];
    for (let guess = 0; guess < 60; guess++)
      answers.push((await call(gateway.url, '/admin/merchants', { headers: { 'x-admin-key': `${WRONG_KEY}${guess}` } })).status);
    expect(answers.filter((status) => status === 401)).toHaveLength(5);
    expect(answers.filter((status) => status === 429)).toHaveLength(55);

    const metrics = await gateway.metrics();
    const refused = (reason: string) => Number(new RegExp(`vaultline_admin_refused_total\\{[^}]*reason="${reason}"[^}]*\\} (\\d+)`).exec(metrics)?.[1]);
    expect(refused('invalid_admin_key')).toBe(5);
    expect(refused('too_many_refusals')).toBe(55);

    // The gathered entries are written once their minute ended, or at the stop.
    expect(await auditEntries(store)).toEqual([]);
    await gateway.close();
    gateway = await startGateway(upstreams, new MemoryDocumentStore());
    const entries = await auditEntries(store);
    expect(entries.map(({ status, count }) => ({ status, count })).sort((a, b) => a.status - b.status)).toEqual(
      expect.arrayContaining([
        { status: 401, count: 5 },
        { status: 429, count: 55 },
      ]),
    );
    // Two entries, or four when the flood straddled a minute's end: bounded either way.
    expect(entries.length).toBeLessThanOrEqual(4);
    expect(entries.reduce((sum, entry) => sum + entry.count, 0)).toBe(60);
    for (const entry of entries)
      expect(entry).toMatchObject({
        operator_id: null,
        via: 'admin_key',
        client_address: '127.0.0.1',
        method: 'GET',
        path: '/admin/merchants',
        target_ids: [],
      });
  });

  it('when a 14,799-character path is sent by an operator, then its audit row keeps at most the first 300 characters and 5 target ids', async () => {
    const ids = Array.from({ length: 400 }, () => newId());
    const path = `/admin/merchants/${ids.join('/')}`.slice(0, 14_799);
    const answer = await call(gateway.url, path, { headers: { 'x-admin-key': ADMIN_KEY } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const entry = await waitFor(async () => (await auditEntries(store)).find((candidate) => candidate.request_id === answer.headers.get('x-request-id')));
    expect(entry.path.length).toBeLessThanOrEqual(AUDITED_PATH_LENGTH + 1);
    expect(entry.path.startsWith('/admin/merchants/')).toBe(true);
    expect(entry.target_ids.length).toBeLessThanOrEqual(5);
    expect(Buffer.byteLength(JSON.stringify(entry))).toBeLessThan(1_024);
  });

  it('when the admin audit is read, then its entries carry client_address and count as documented', async () => {
    await call(gateway.url, '/admin/operators', { headers: { 'x-admin-key': ADMIN_KEY } });
    const page = await call(gateway.url, '/admin/audit?limit=10', { headers: { 'x-admin-key': ADMIN_KEY } });
    expectDocumented('get', '/admin/audit', page);
    const entries = page.json.data as AdminAuditEntry[];
    expect(entries.find((entry) => entry.path === '/admin/operators')).toMatchObject({ client_address: '127.0.0.1', count: 1 });
  });
});

describe('the admin audit retention', () => {
  it('when entries are older than AUDIT_RETENTION_DAYS, then the retention deletes them and keeps the younger ones', async () => {
    const store = new MemoryDocumentStore();
    for (const spec of gatewayCollections) await store.register(spec);
    const repository = new StoreAdminAuditRepository(store);
    const now = new Date('2027-06-01T12:00:00Z');
    // Ids are UUIDv7 minted when the entry was written: the id of an entry written `daysAgo` carries that time.
    const entryAt = (daysAgo: number): AdminAuditEntry => {
      const at = new Date(now.getTime() - daysAgo * 86_400_000);
      return {
        id: firstIdAt(at),
        at: at.toISOString(),
        operator_id: null,
        operator_name: null,
        via: 'admin_key',
        session_id_prefix: null,
        key_id: null,
        role: null,
        merchant_id: null,
        mode: null,
        method: 'GET',
        path: '/admin/merchants',
        target_ids: [],
        status: 200,
        request_id: `r-${daysAgo}`,
        client_address: '127.0.0.1',
        count: 1,
      };
    };
    for (const daysAgo of [800, 401, 399, 1]) await repository.append(entryAt(daysAgo));

    const prune = pruneAdminAudit({ audit: repository, clock: { now: () => now }, retentionDays: 400 });
    expect(await prune()).toBe(2);
    expect((await auditEntries(store)).map((entry) => entry.request_id).sort()).toEqual(['r-1', 'r-399']);
    expect(await prune()).toBe(0);
  });

  it('when AUDIT_RETENTION_DAYS is not set, then the audit is kept 400 days', () => {
    expect(loadGatewayConfig({}).auditRetentionDays).toBe(400);
    expect(loadGatewayConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
  });
});

describe('admin keys', () => {
  it('when ADMIN_API_KEY is shorter than 32 characters, then the gateway refuses to start, naming the variable', () => {
    expect(() => loadGatewayConfig({ ADMIN_API_KEY: 'admin_local_dev_key' })).toThrow(/ADMIN_API_KEY.*at least 32 characters/s);
    expect(loadGatewayConfig({ ADMIN_API_KEY: 'admin_local_dev_key_0123456789abcdef01' }).adminApiKey).toBe('admin_local_dev_key_0123456789abcdef01');
  });
});
