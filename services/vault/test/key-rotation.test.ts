import { waitFor } from '@vaultline/core';
import { StoreKeyRotationRepository } from '../src/data/key-rotation.repository';
import { StoreTokenRepository } from '../src/data/token.repository';
import { KeyRotationWorker, rewrapBatch, startKeyRotation } from '../src/domain/keys/key-rotation';
import { ADMIN, aCard, FORWARDER, MERCHANT, OTHER_MERCHANT, MERCHANT_SCOPE, startVault, testKeyEnv, type VaultHarness } from './vault-harness';

describe('key-encryption key rotation', () => {
  let vault: VaultHarness;
  afterEach(() => vault.stop());

  async function tokenizeMany(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const caller = i % 2 === 0 ? MERCHANT : OTHER_MERCHANT;
      ids.push(String((await vault.call(caller, 'POST', '/tokens', { card: aCard() })).body.id));
    }
    return ids;
  }

  it('when a rotation to a new version is started from the admin API, then every data key is re-wrapped and old tokens keep decrypting', async () => {
    vault = await startVault({ env: { ...testKeyEnv([1, 2], 1), VAULT_ROTATION_BATCH_SIZE: '3' } });
    const ids = await tokenizeMany(8);
    const started = await vault.call(ADMIN, 'POST', '/admin/key-rotations', { to_version: 2 });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ to_version: 2, state: 'running', total: 8 });
    const created = await vault.call(MERCHANT, 'POST', '/tokens', { card: aCard() });
    const done = await waitFor(async () => {
      const progress = await vault.call(ADMIN, 'GET', `/admin/key-rotations/${String(started.body.id)}`);
      return progress.body.state === 'completed' ? progress.body : null;
    });
    expect(done).toMatchObject({ total: 8, rewrapped: 8, remaining: 0 });
    // The operators' key status page: the active version, the ring, and the rotations newest first.
    expect((await vault.call(ADMIN, 'GET', '/admin/key-status')).body).toEqual({ object: 'key_status', active_version: 2, versions: [1, 2] });
    const listed = await vault.call(ADMIN, 'GET', '/admin/key-rotations');
    expect(listed.body).toMatchObject({ object: 'list', data: [{ id: started.body.id, state: 'completed', remaining: 0 }], has_more: false });
    expect((await vault.call(MERCHANT, 'GET', '/admin/key-rotations')).status).toBe(403);
    const tokens = new StoreTokenRepository(vault.runtime.store);
    const newest = await tokens.get(MERCHANT_SCOPE, String(created.body.id));
    expect(newest?.kek_version).toBe(2);
    for (const [i, id] of ids.entries()) {
      const merchantId = i % 2 === 0 ? MERCHANT.merchantId : OTHER_MERCHANT.merchantId;
      expect((await tokens.get({ merchantId, mode: 'test' }, id))?.kek_version).toBe(2);
      expect((await vault.call(FORWARDER(merchantId), 'POST', `/internal/tokens/${id}/detokenize`, { purpose: 't' })).body.number).toBe('4242424242424242');
    }
  });

  it('when the version is not configured, then it answers 422 unknown_key_version; while one runs, a second answers 409', async () => {
    vault = await startVault({ env: testKeyEnv([1, 2], 1) });
    const unknown = await vault.call(ADMIN, 'POST', '/admin/key-rotations', { to_version: 7 });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'unknown_key_version']);
    await vault.app.stop(); // no worker: the first rotation stays running
    await vault.call(ADMIN, 'POST', '/admin/key-rotations', { to_version: 2 });
    const second = await vault.call(ADMIN, 'POST', '/admin/key-rotations', { to_version: 1 });
    expect([second.status, second.body.code]).toEqual([409, 'key_rotation_in_progress']);
  });

  it('when the service stops mid-rotation, then a new worker resumes after the saved cursor and finishes without redoing work', async () => {
    vault = await startVault({ env: testKeyEnv([1, 2], 1) });
    await tokenizeMany(7);
    await vault.app.stop();
    // The use cases built as the composition root builds them, over the store and keys the vault ran with.
    const { store, clock } = vault.runtime;
    const ports = {
      rotations: new StoreKeyRotationRepository(store),
      tokens: new StoreTokenRepository(store),
      keys: vault.config.keys,
      transaction: store.transaction.bind(store),
      clock,
    };
    const rotation = await startKeyRotation(ports)(2);
    const afterOneBatch = await rewrapBatch(ports)(rotation, 3);
    expect(afterOneBatch).toMatchObject({ rewrapped: 3, state: 'running' });
    expect(afterOneBatch.cursor).not.toBeNull();

    const worker = new KeyRotationWorker(
      { rotations: ports.rotations, rewrapBatch: rewrapBatch(ports) },
      {
        batchSize: 3,
        pauseMs: 0,
        onError: (e) => {
          throw e;
        },
      },
    );
    worker.start();
    const finished = await waitFor(async () => {
      const current = await ports.rotations.get(rotation.id);
      return current?.state === 'completed' ? current : null;
    });
    await worker.stop();
    expect(finished).toMatchObject({ total: 7, rewrapped: 7 });
  });
});
