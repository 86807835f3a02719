import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@vaultline/core';
import { startEmbedded, startLocal } from '@vaultline/launcher';

/**
 * The foundation's vertical slice: a merchant call through the gateway to the vault (stored), its
 * token.created event on the bus, consumed by the notifier into the merchant's event log — in the
 * embedded and local profiles, with a restart in the middle: nothing lost, nothing applied twice.
 */
const apiKey = 'sk_test_vertical_slice_0123456789abcdef';
const card = (i: number) => ({
  card: { number: '4242424242424242', exp_month: 12, exp_year: 2031 + (i % 5), cvc: '123', name: `Slice ${i}` },
  business_key: `slice-${i}`,
});

async function createToken(baseUrl: string, i: number): Promise<string> {
  const response = await fetch(`${baseUrl}/tokens`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(card(i)),
  });
  const body = (await response.json()) as { id: string };
  expect([200, 201]).toContain(response.status);
  return body.id;
}

async function tokenCreatedEvents(baseUrl: string): Promise<Array<{ id: string; data: { token_id: string } }>> {
  const events: Array<{ id: string; data: { token_id: string } }> = [];
  let after: string | null = null;
  do {
    const query: string = `type=token.created&limit=100${after ? `&starting_after=${after}` : ''}`;
    const response = await fetch(`${baseUrl}/events?${query}`, { headers: { 'X-API-Key': apiKey } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: Array<{ id: string; data: { token_id: string } }>; has_more: boolean; next_cursor: string | null };
    events.push(...page.data);
    after = page.has_more ? page.next_cursor : null;
  } while (after);
  return events;
}

async function expectEachTokenExactlyOnce(baseUrl: string, tokenIds: string[]): Promise<void> {
  await waitFor(async () => (await tokenCreatedEvents(baseUrl)).length >= tokenIds.length, 20_000, 50);
  const events = await tokenCreatedEvents(baseUrl);
  const seen = events.map((e) => e.data.token_id).sort();
  expect(seen).toEqual([...new Set(tokenIds)].sort());
}

describe('vertical slice: token created through the gateway reaches the notifier event log', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-slice-'));
  });
  afterEach(() => [dataDir, `${dataDir}-keys`].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('in the embedded profile, across a restart in the middle, every event arrives exactly once', async () => {
    const env = { BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'silent' };
    let system = await startEmbedded({ dataDir, port: 0, env });
    const tokenIds: string[] = [];
    for (let i = 0; i < 10; i++) tokenIds.push(await createToken(system.baseUrl, i));
    // Stop at once: some events may still sit in the outbox or be mid-delivery.
    await system.stop();

    system = await startEmbedded({ dataDir, port: 0, env });
    try {
      for (let i = 10; i < 20; i++) tokenIds.push(await createToken(system.baseUrl, i));
      await expectEachTokenExactlyOnce(system.baseUrl, tokenIds);
    } finally {
      await system.stop();
    }
  });

  it('in the local profile (a process per service, Redis Streams), across service restarts, every event arrives exactly once', async () => {
    const system = await startLocal({
      dataDir,
      port: 0,
      stdio: 'files',
      env: { BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn', ADMIN_API_KEY: 'admin_local_slice_key_0123456789abcdef' },
    });
    try {
      const tokenIds: string[] = [];
      for (let i = 0; i < 10; i++) tokenIds.push(await createToken(system.baseUrl, i));
      await system.restart('notifier');
      await system.restart('vault');
      for (let i = 10; i < 20; i++) tokenIds.push(await createToken(system.baseUrl, i));
      await expectEachTokenExactlyOnce(system.baseUrl, tokenIds);
    } finally {
      await system.stop();
    }
  }, 120_000);
});
