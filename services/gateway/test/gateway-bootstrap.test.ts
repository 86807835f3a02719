import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '@vaultline/auth';
import { MemoryDocumentStore, SqliteDocumentStore, SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { ApiKeyDocument } from '../src/data/api-key.repository';
import type { EchoBody } from './support/echo-upstream';
import { ADMIN_KEY, startGateway, startUpstreams, type Upstreams } from './support/gateway-harness';
import { call, expectProblem } from './support/http-call';
import { loadGatewayConfig } from '../src/config';

const BOOTSTRAP = 'sk_test_bootstrap_0123456789abcdef';

let upstreams: Upstreams;
let dir: string;

beforeAll(async () => {
  upstreams = await startUpstreams();
  dir = mkdtempSync(join(tmpdir(), 'gateway-bootstrap-'));
});

afterAll(async () => {
  await upstreams.close();
  rmSync(dir, { recursive: true, force: true });
});

async function withGateway<T>(store: DocumentStore, run: (url: string) => Promise<T>): Promise<T> {
  const gateway = await startGateway(upstreams, store, { BOOTSTRAP_API_KEY: BOOTSTRAP });
  try {
    return await run(gateway.url);
  } finally {
    await gateway.close();
  }
}

describe('BOOTSTRAP_API_KEY', () => {
  it('when the gateway restarts on the same store, then the bootstrap key keeps working and exactly one bootstrap merchant exists', async () => {
    const file = join(dir, 'gateway.db');
    const merchantIds: string[] = [];
    for (let run = 0; run < 2; run++) {
      const store = await SqliteDocumentStore.open(file);
      try {
        await withGateway(store, async (url) => {
          const echo = (await call(url, '/tokens', { headers: { 'x-api-key': BOOTSTRAP } })).json as unknown as EchoBody;
          expect(echo.auth.scopes).toEqual(['merchant', 'card_data']);
          merchantIds.push(echo.auth.merchantId);
          const list = await call(url, '/admin/merchants', { headers: { 'x-admin-key': ADMIN_KEY } });
          expect((list.json.data as Array<{ name: string }>).filter((m) => m.name === 'Bootstrap merchant')).toHaveLength(1);
        });
      } finally {
        await store.close();
      }
    }
    // Same merchant across the restart; the pepper generated on first start was kept in the store.
    expect(merchantIds[1]).toBe(merchantIds[0]);
  });

  it('when the bootstrap key is malformed, then configuration fails naming the variable', () => {
    expect(() => loadGatewayConfig({ BOOTSTRAP_API_KEY: 'pk_test_0123456789abcdefghij' })).toThrow(/BOOTSTRAP_API_KEY/);
    expect(() => loadGatewayConfig({ BOOTSTRAP_API_KEY: 'sk_test_short' })).toThrow(/BOOTSTRAP_API_KEY: must be at least 24 characters/);
    expect(loadGatewayConfig({ BOOTSTRAP_API_KEY: BOOTSTRAP }).bootstrapApiKey).toBe(BOOTSTRAP);
  });
});

describe('failures inside the gateway', () => {
  it('when the store throws an unexpected error, then the answer is a 500 with the request id and no internals', async () => {
    const store = await SqliteDocumentStore.open(':memory:');
    await withGateway(store, async (url) => {
      // Break the store under the running gateway: the next key lookup throws a raw driver error.
      await store.close();
      const result = await call(url, '/tokens', { headers: { 'x-api-key': BOOTSTRAP, 'x-request-id': 'req-500' } });
      expectProblem(result, 500, 'internal_error');
      expect(result.json.request_id).toBe('req-500');
      expect(result.text).not.toMatch(/sqlite|database|Error:/i);
    });
  });
});

/** Documents as an earlier version wrote them. */
type Legacy = StoredDocument & Record<string, unknown>;

describe('whose an API key is', () => {
  const PEPPER = 'pepper_for_tests_0123456789';

  it('when a merchant is created, then its key is stored under that merchant, and the same key cannot be given to a second merchant', async () => {
    const store = new MemoryDocumentStore();
    const gateway = await startGateway(upstreams, store, { API_KEY_PEPPER: PEPPER });
    try {
      const created = await call(gateway.url, '/admin/merchants', {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Owner' }),
      });
      const apiKey = created.json.api_key as string;
      const stored = await store.collection<ApiKeyDocument>('api_keys').findGlobal({ key_hash: hashApiKey(apiKey, PEPPER) });
      expect(stored?.merchant_id).toBe(created.json.id);

      const copy = { ...stored!, id: randomUUID(), merchant_id: randomUUID(), version: undefined };
      await expect(store.transaction((uow) => uow.insert('api_keys', copy))).rejects.toMatchObject({ code: 'duplicate_key' });
    } finally {
      await gateway.close();
    }
  });

  it('when the store holds keys written by an earlier version (with its system-scoped hash index), then they still authenticate', async () => {
    const store = await SqliteDocumentStore.open(join(dir, 'earlier.db'));
    const merchantId = randomUUID();
    const apiKey = 'sk_test_earlier_0123456789abcdefgh';
    const key = {
      id: randomUUID(),
      merchant_id: merchantId,
      key_hash: hashApiKey(apiKey, PEPPER),
      prefix: 'sk_test_earl',
      mode: 'test',
      scopes: ['merchant'],
      label: null,
      created_at: new Date().toISOString(),
      revoked_at: null,
      expires_at: null,
    };
    await store.register({ name: 'merchants' });
    await store.register({ name: 'api_keys' });
    await store.register({ name: 'api_key_hashes', indexes: [{ fields: ['key_hash'], unique: true }] });
    await store.transaction((uow) => {
      uow.insert<Legacy>('merchants', {
        id: merchantId,
        merchant_id: SYSTEM_SCOPE,
        name: 'Earlier shop',
        card_data_access: false,
        created_at: new Date().toISOString(),
      });
      uow.insert<Legacy>('api_keys', key);
      uow.insert<Legacy>('api_key_hashes', { id: key.id, merchant_id: SYSTEM_SCOPE, key_hash: key.key_hash, owner_merchant_id: merchantId });
    });
    try {
      const gateway = await startGateway(upstreams, store, { API_KEY_PEPPER: PEPPER });
      try {
        const echo = (await call(gateway.url, '/tokens', { headers: { 'x-api-key': apiKey } })).json as unknown as EchoBody;
        expect(echo.auth).toMatchObject({ merchantId, scopes: ['merchant'] });
      } finally {
        await gateway.close();
      }
    } finally {
      await store.close();
    }
  });
});
