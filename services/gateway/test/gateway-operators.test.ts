import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { SqliteDocumentStore } from '@vaultline/store';
import type { AdminAuditEntry as AuditEntry } from '../src/domain/admin-audit-entry';
import { ADMIN_KEY, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './support/gateway-harness';
import { adminCall, expectDocumented, expectProblem } from './support/http-call';

let upstreams: Upstreams;
let gateway: RunningGateway;
let store: SqliteDocumentStore;
const dir = mkdtempSync(join(tmpdir(), 'vaultline-operators-'));

beforeAll(async () => {
  upstreams = await startUpstreams();
  store = await SqliteDocumentStore.open(join(dir, 'gateway.db'));
  gateway = await startGateway(upstreams, store);
});

afterAll(async () => {
  await gateway.close();
  await upstreams.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const as = (adminKey: string, path: string, method = 'GET', body?: unknown) => adminCall(gateway.url, adminKey, path, method, body);

/** The audit entries the bootstrap operator reads, once `count` entries match `which`. */
async function auditWhere(which: (entry: AuditEntry) => boolean, count = 1): Promise<AuditEntry[]> {
  return waitFor(async () => {
    const page = await as(ADMIN_KEY, '/admin/audit?limit=100');
    const matching = (page.json.data as AuditEntry[]).filter(which);
    return matching.length >= count ? matching : null;
  });
}

describe('named operators', () => {
  it('when ADMIN_API_KEY is configured, then it is the operator "bootstrap", kept only as a hash', async () => {
    const listed = await as(ADMIN_KEY, '/admin/operators');
    expectDocumented('get', '/admin/operators', listed);
    const bootstrap = (listed.json.data as Array<Record<string, unknown>>).find((o) => o.name === 'bootstrap');
    expect(bootstrap).toMatchObject({ name: 'bootstrap', prefix: ADMIN_KEY.slice(0, 12), revoked_at: null });
    expect(listed.text).not.toContain(ADMIN_KEY);
    for (const file of readdirSync(dir)) expect({ file, holdsKey: readFileSync(join(dir, file)).includes(ADMIN_KEY) }).toEqual({ file, holdsKey: false });
  });

  it('when an operator is created, then its key is shown once, works, is listed by prefix only and stops working once revoked', async () => {
    const created = await as(ADMIN_KEY, '/admin/operators', 'POST', { name: 'alice' });
    expect(created.status).toBe(201);
    expectDocumented('post', '/admin/operators', created);
    const aliceKey = created.json.admin_key as string;
    expect(aliceKey).toMatch(/^admin_[0-9A-Za-z]{32}$/);

    expect((await as(aliceKey, '/admin/merchants')).status).toBe(200);
    const listed = await as(aliceKey, '/admin/operators');
    expect(listed.text).not.toContain(aliceKey);
    expect((listed.json.data as Array<{ name: string }>).map((o) => o.name)).toEqual(expect.arrayContaining(['alice', 'bootstrap']));

    const revoked = await as(ADMIN_KEY, `/admin/operators/${created.json.id as string}`, 'DELETE');
    expectDocumented('delete', '/admin/operators/{operator_id}', revoked);
    expect(revoked.json.revoked_at).toEqual(expect.any(String));
    const refused = await as(aliceKey, '/admin/merchants');
    expectProblem(refused, 401, 'invalid_admin_key');
    expect(refused.json.detail).toBe('The admin key is not valid.');
    expectProblem(await as(ADMIN_KEY, `/admin/operators/${created.json.id as string}`, 'DELETE'), 409, 'operator_revoked');
  });

  it('when a name is taken or missing, then it answers 409 operator_name_taken or 422 naming the field', async () => {
    expect((await as(ADMIN_KEY, '/admin/operators', 'POST', { name: 'bob' })).status).toBe(201);
    expectProblem(await as(ADMIN_KEY, '/admin/operators', 'POST', { name: 'bob' }), 409, 'operator_name_taken');
    const missing = await as(ADMIN_KEY, '/admin/operators', 'POST', {});
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.json.field).toBe('name');
  });
});

describe('the admin audit log', () => {
  it('when an operator acts, then GET /admin/audit says who, what, on which ids, when and with which outcome, and never the request body', async () => {
    const carol = await as(ADMIN_KEY, '/admin/operators', 'POST', { name: 'carol' });
    const carolKey = carol.json.admin_key as string;
    const merchant = await as(carolKey, '/admin/merchants', 'POST', { name: 'Audited shop secret-name-7731' });
    const merchantId = merchant.json.id as string;
    const keys = await as(carolKey, `/admin/merchants/${merchantId}/api-keys`);
    const keyId = (keys.json.data as Array<{ id: string }>)[0]!.id;
    await as(carolKey, `/admin/merchants/${merchantId}/api-keys/${keyId}`, 'DELETE');

    const entries = await auditWhere((e) => e.operator_name === 'carol', 3);
    const page = await as(ADMIN_KEY, '/admin/audit?limit=100');
    expectDocumented('get', '/admin/audit', page);
    expect(page.text).not.toContain('secret-name-7731');
    expect(page.text).not.toContain(carolKey);
    expect(page.text).not.toContain(merchant.json.api_key as string);
    // Newest first.
    expect(entries.map((e) => `${e.method} ${e.path}`)).toEqual([
      `DELETE /admin/merchants/${merchantId}/api-keys/${keyId}`,
      `GET /admin/merchants/${merchantId}/api-keys`,
      'POST /admin/merchants',
    ]);
    expect(entries[0]).toMatchObject({ operator_id: carol.json.id, operator_name: 'carol', status: 200, target_ids: [merchantId, keyId] });
    expect(entries[2]).toMatchObject({ status: 201, target_ids: [merchantId], request_id: merchant.headers.get('x-request-id') });
    expect(Date.parse(entries[0]!.at)).not.toBeNaN();
  });

  // A wrong admin key's attempts are gathered per address and minute: gateway-admin-edge.test.ts.
  it("when an operator's action fails, then it is audited with its outcome", async () => {
    const unknown = await as(ADMIN_KEY, '/admin/merchants/00000000-0000-7000-8000-000000000000');
    const [failed] = await auditWhere((e) => e.request_id === unknown.headers.get('x-request-id'));
    expect(failed).toMatchObject({ operator_name: 'bootstrap', status: 404, target_ids: ['00000000-0000-7000-8000-000000000000'] });
  });

  it('when the audit is read page by page, then the cursor walks it newest first without gaps, and operator_id filters it', async () => {
    const dave = await as(ADMIN_KEY, '/admin/operators', 'POST', { name: 'dave' });
    const daveKey = dave.json.admin_key as string;
    for (let i = 0; i < 3; i += 1) await as(daveKey, '/admin/merchants');
    await auditWhere((e) => e.operator_name === 'dave', 3);

    const first = await as(ADMIN_KEY, `/admin/audit?limit=2&operator_id=${dave.json.id as string}`);
    expect(first.json.has_more).toBe(true);
    const second = await as(ADMIN_KEY, `/admin/audit?limit=2&operator_id=${dave.json.id as string}&starting_after=${first.json.next_cursor as string}`);
    const all = [...(first.json.data as AuditEntry[]), ...(second.json.data as AuditEntry[])];
    expect(all).toHaveLength(3);
    expect(all.every((e) => e.operator_name === 'dave')).toBe(true);
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    expect(new Set(all.map((e) => e.id)).size).toBe(3);
  });
});
