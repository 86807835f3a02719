import { eventCatalog, validateAgainstOpenApi } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { ADMIN_API_KEY, startSystem, type RunningSystem } from './support/merchant-api';

/**
 * Issue 37, "Dead letters": a message the notifier cannot handle becomes a dead letter an operator lists and
 * replays through the gateway's admin API (/admin/<service>/dead-letters), every call in the admin audit; each
 * service also lists the outbox messages its relay parked.
 */
let running: RunningSystem;

beforeAll(async () => {
  running = await startSystem({}, 'vaultline-ops-dead-letters-');
}, 60_000);

afterAll(async () => {
  await running?.stop();
});

async function admin(method: string, path: string) {
  const answer = await fetch(`${running.system.baseUrl}${path}`, { method, headers: { 'x-admin-key': ADMIN_API_KEY } });
  return { status: answer.status, json: (await answer.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> } };
}

describe('dead letters and parked outbox messages through the admin API', () => {
  it('when a message on the payments topic is not an event, then the notifier keeps it as a dead letter; a replay fails again and says why; all of it is audited', async () => {
    const topic = eventCatalog['payment.captured'].topic;
    await running.system.bus.publish([{ topic, key: 'broken-1', value: 'not an event', headers: {} }]);

    const listPath = `/admin/notifier/dead-letters?topic=${topic}&state=dead`;
    await waitFor(async () => ((await admin('GET', listPath)).json.data ?? []).some((letter) => letter.key === 'broken-1'), 15_000);
    const list = await admin('GET', listPath);
    expect(validateAgainstOpenApi('GET', '/admin/notifier/dead-letters', 200, list.json)).toEqual({ valid: true, errors: [] });
    const letter = list.json.data!.find((entry) => entry.key === 'broken-1')!;
    expect(letter).toMatchObject({ object: 'dead_letter', group: 'notifier.merchant-events', topic, event_id: null, attempts: 1, state: 'dead' });
    expect(String(letter.error)).toMatch(/^invalid_event/);

    const one = await admin('GET', `/admin/notifier/dead-letters/${String(letter.id)}`);
    expect(one.json).toMatchObject({ id: letter.id, message: { value: 'not an event' } });
    expect(validateAgainstOpenApi('GET', '/admin/notifier/dead-letters/{dead_letter_id}', 200, one.json)).toEqual({ valid: true, errors: [] });

    const replay = await admin('POST', `/admin/notifier/dead-letters/${String(letter.id)}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.json).toMatchObject({ state: 'dead', replays: [{ outcome: 'failed' }] });
    expect(validateAgainstOpenApi('POST', '/admin/notifier/dead-letters/{dead_letter_id}/replay', 200, replay.json)).toEqual({ valid: true, errors: [] });

    const audit = await admin('GET', '/admin/audit?limit=20');
    expect((audit.json.data ?? []).map((entry) => `${String(entry.method)} ${String(entry.path)} ${String(entry.status)}`)).toContain(
      `POST /admin/notifier/dead-letters/${String(letter.id)}/replay 200`,
    );
  }, 60_000);

  it('when an unknown dead letter is replayed or an unknown parked message unparked, then 404 with the code naming it; a bad id 422', async () => {
    expect(await admin('POST', '/admin/notifier/dead-letters/00000000-0000-4000-8000-000000000000/replay')).toMatchObject({
      status: 404,
      json: { code: 'dead_letter_not_found' },
    });
    expect(await admin('POST', '/admin/forwarder/outbox/parked/00000000-0000-4000-8000-000000000000/unpark')).toMatchObject({
      status: 404,
      json: { code: 'parked_message_not_found' },
    });
    expect((await admin('GET', '/admin/vault/dead-letters/not-an-id')).status).toBe(422);
    expect((await admin('GET', '/admin/notifier/dead-letters?state=gone')).status).toBe(422);
  });

  it("when a service's parked outbox messages are listed, then every service answers a page (none parked here)", async () => {
    for (const service of ['vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier']) {
      const parked = await admin('GET', `/admin/${service}/outbox/parked`);
      expect([service, parked.status, parked.json.data]).toEqual([service, 200, []]);
    }
  });
});
