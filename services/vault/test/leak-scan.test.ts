import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBus, type Bus } from '@vaultline/bus';
import { allTopics } from '@vaultline/contracts';
import { ManualClock, waitFor } from '@vaultline/core';
import { SqliteDocumentStore } from '@vaultline/store';
import { RedisTtlStore } from '@vaultline/ttl';
import { startRedisServer, type RunningRedis } from '@vaultline/testing';
import { ADMIN, aCard, captureTopics, FORWARDER, MERCHANT, PUBLIC, startVault, type VaultHarness } from './vault-harness';
import { openSession } from './checkout-helpers';

const CARDS = [
  { number: '4111111111111111', cvc: '846' },
  { number: '378282246310005', cvc: '7391' },
  { number: '5105105105105100', cvc: '519' },
  { number: '6011000990139424', cvc: '632' },
  { number: '3530111333300000', cvc: '905' },
];

/** Every way a PAN could be written down: plain, grouped by 4 with spaces or dashes, Amex 4-6-5. */
function variantsOf(pan: string): string[] {
  const groups4 = pan.match(/.{1,4}/g) ?? [];
  const amex = [pan.slice(0, 4), pan.slice(4, 10), pan.slice(10)];
  return [pan, groups4.join(' '), groups4.join('-'), amex.join(' '), amex.join('-')];
}

/** Security codes are short: look for them as written in JSON or form data. */
const codeForms = (cvc: string): string[] => [`"${cvc}"`, `cvc=${cvc}`, `:${cvc},`, `:${cvc}}`];

function hitsIn(haystack: string): string[] {
  const hits: string[] = [];
  for (const card of CARDS) {
    for (const variant of variantsOf(card.number))
      if (haystack.includes(variant)) hits.push(`PAN ${card.number.slice(-4)} as "${variant.replace(/\d(?=.{4})/g, '#')}"`);
    for (const form of codeForms(card.cvc)) if (haystack.includes(form)) hits.push(`security code of ${card.number.slice(-4)}`);
  }
  return hits;
}

describe('no card data outside the encrypted fields (leak scan)', () => {
  let dir: string;
  let redis: RunningRedis;
  let bus: Bus;
  let vault: VaultHarness;
  const logLines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vault-leak-'));
    redis = await startRedisServer();
    bus = await openBus(`sqlite:${join(dir, 'bus.db')}`);
    vault = await startVault({
      store: await SqliteDocumentStore.open(join(dir, 'vault.db')),
      ttl: new RedisTtlStore(redis.url, { keyPrefix: 'vaultline:vault:' }),
      bus,
      clock: new ManualClock(new Date()),
      logLines,
    });
  });

  afterAll(async () => {
    await vault?.stop();
    await vault?.runtime.store.close();
    await vault?.runtime.ttl.close();
    await bus?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a full scenario ran, then no SQLite file, Redis key or value, bus message or log line holds a PAN or security code', async () => {
    const capture = await captureTopics(bus, allTopics());
    // Tokens through the API, an import (created then updated), a checkout, detokenization, deletion, refusals.
    const ids: string[] = [];
    for (const card of CARDS.slice(0, 3)) {
      const answer = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: variantsOf(card.number)[1], cvc: card.cvc }) });
      expect(answer.status).toBe(201);
      ids.push(String(answer.body.id));
    }
    const imported = await vault.call(
      MERCHANT,
      'POST',
      '/cde-import',
      { metadata: { business_key: 'pm_leak' }, card: aCard({ number: CARDS[3]!.number, cvc: CARDS[3]!.cvc }) },
      { 'x-correlation-id': 'job_leak' },
    );
    await vault.call(MERCHANT, 'POST', '/cde-import', { metadata: { business_key: 'pm_leak' }, card: aCard({ number: CARDS[3]!.number, cvc: CARDS[3]!.cvc }) });
    const { sessionId } = await openSession(vault);
    expect((await vault.call(PUBLIC, 'POST', `/sessions/${sessionId}/card`, { card: aCard({ number: CARDS[4]!.number, cvc: CARDS[4]!.cvc }) })).status).toBe(
      201,
    );
    // Rejected inputs must not leak either (bad Luhn, wrong code length).
    await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: CARDS[0]!.number.slice(0, -1) + '2', cvc: CARDS[0]!.cvc }) });
    await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard({ number: CARDS[1]!.number, cvc: CARDS[0]!.cvc }) });
    for (const id of [...ids, String(imported.body.id)]) {
      expect((await vault.call(FORWARDER(), 'POST', `/internal/tokens/${id}/detokenize`, { purpose: 'scan' })).status).toBe(200);
    }
    await vault.call(MERCHANT, 'POST', `/internal/tokens/${ids[0]!}/detokenize`, { purpose: 'denied' });
    await vault.call(MERCHANT, 'DELETE', `/tokens/${ids[1]!}`);
    await vault.call(ADMIN, 'POST', '/admin/key-rotations', { to_version: 1 });
    await waitFor(
      () => capture.values.some((v) => v.includes('checkout.session.completed')) && capture.values.filter((v) => v.includes('token.detokenized')).length >= 4,
    );
    await capture.stop();

    const files = readdirSync(dir).filter((f) => f.includes('.db'));
    expect(files).toEqual(expect.arrayContaining(['vault.db', 'bus.db']));
    const fileHits = files.flatMap((file) => hitsIn(readFileSync(join(dir, file)).toString('latin1')).map((hit) => `${file}: ${hit}`));

    const redisCli = (...args: string[]) => execFileSync('redis-cli', ['-p', String(redis.port), '--raw', ...args], { encoding: 'utf8' });
    const keys = redisCli('--scan').split('\n').filter(Boolean);
    expect(keys.some((k) => k.includes('security-code'))).toBe(true);
    const redisText = keys.map((key) => `${key}=${redisCli('GET', key)}`).join('\n');

    expect(capture.values.length).toBeGreaterThan(8);
    expect(logLines.length).toBeGreaterThan(10);
    expect({
      files: fileHits,
      redis: hitsIn(redisText),
      bus: hitsIn(capture.values.join('\n')),
      logs: hitsIn(logLines.join('\n')),
    }).toEqual({ files: [], redis: [], bus: [], logs: [] });
  });

  it('the scanner itself finds a planted PAN in any of its forms and a quoted security code', () => {
    expect(hitsIn('{"number":"4111-1111-1111-1111"}')).toHaveLength(1);
    expect(hitsIn('n=3782 822463 10005')).toHaveLength(1);
    expect(hitsIn('{"cvc":"846"}')).toHaveLength(1);
  });
});
