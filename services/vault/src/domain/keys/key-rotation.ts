import { ConflictError, NotFoundError, newId } from '@vaultline/core';
import { rewrapRecordKey } from '@vaultline/crypto';
import { ConcurrentModificationError, SYSTEM_SCOPE, type StoredDocument } from '@vaultline/store';
import type { VaultDeps } from '../ports';

export interface KeyRotationRecord extends StoredDocument {
  to_version: number;
  state: 'running' | 'completed';
  /** Active tokens not yet wrapped by to_version when the rotation started. */
  total: number;
  rewrapped: number;
  /** Last token id handled in the current pass; the job resumes after it after a restart. */
  cursor: string | null;
  passes: number;
  started_at: string;
  completed_at: string | null;
}

export interface KeyRotationView {
  id: string;
  to_version: number;
  state: KeyRotationRecord['state'];
  total: number;
  rewrapped: number;
  remaining: number;
  started_at: string;
  completed_at: string | null;
}

export const toRotationView = (r: KeyRotationRecord, remaining: number): KeyRotationView => ({
  id: r.id,
  to_version: r.to_version,
  state: r.state,
  total: r.total,
  rewrapped: r.rewrapped,
  remaining,
  started_at: r.started_at,
  completed_at: r.completed_at,
});

/**
 * Starts a rotation: `toVersion` becomes the active KEK at once (new tokens use it), and the
 * background job re-wraps every existing data key. Field ciphertexts are untouched, so tokens
 * keep decrypting throughout: the ring keeps every configured version.
 */
export async function startKeyRotation(deps: VaultDeps, toVersion: number): Promise<KeyRotationRecord> {
  const running = await deps.rotations.running();
  if (running.length > 0) throw new ConflictError('key_rotation_in_progress', `Rotation ${running[0]!.id} is still running.`);
  deps.keys.activate(toVersion);
  const total = await deps.tokens.countNotWrappedBy(toVersion);
  const now = deps.clock.now().toISOString();
  return deps.store.transaction((uow) =>
    deps.rotations.insert(uow, {
      id: newId(),
      merchant_id: SYSTEM_SCOPE,
      to_version: toVersion,
      state: 'running',
      total,
      rewrapped: 0,
      cursor: null,
      passes: 0,
      started_at: now,
      completed_at: null,
    }),
  );
}

export async function getKeyRotation(deps: VaultDeps, id: string): Promise<KeyRotationView> {
  const record = await deps.rotations.get(id);
  if (!record) throw new NotFoundError('key_rotation');
  const remaining = record.state === 'completed' ? 0 : await deps.tokens.countNotWrappedBy(record.to_version);
  return toRotationView(record, remaining);
}

/** After a restart: the version of the latest rotation stays active even if configuration still names an older one. */
export async function restoreActiveVersion(deps: VaultDeps): Promise<void> {
  const latest = await deps.rotations.latest();
  if (latest && deps.keys.ring.activeVersion !== latest.to_version && deps.keys.canActivate(latest.to_version)) {
    deps.keys.activate(latest.to_version);
  }
}

/**
 * Re-wraps one batch of the rotation; returns true when the rotation is complete.
 * Each token is updated in its own unit of work with its optimistic version, so a token changed
 * meanwhile (an import replacing its card data) is simply picked up again in the next pass.
 */
export async function rewrapBatch(deps: VaultDeps, rotation: KeyRotationRecord, batchSize: number): Promise<KeyRotationRecord> {
  const page = await deps.tokens.listNotWrappedBy(rotation.to_version, { limit: batchSize, after: rotation.cursor ?? undefined });
  let rewrapped = 0;
  for (const token of page.items) {
    if (token.status !== 'active' || !token.wrapped_key) continue;
    const context = { merchantId: token.merchant_id, recordId: token.id };
    const key = rewrapRecordKey(deps.keys.ring, context, { kek_version: token.kek_version, wrapped: token.wrapped_key }, rotation.to_version);
    try {
      await deps.store.transaction((uow) => deps.tokens.update(uow, { ...token, kek_version: key.kek_version, wrapped_key: key.wrapped }));
      rewrapped++;
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
  }
  const last = page.items.at(-1);
  let next: KeyRotationRecord = { ...rotation, rewrapped: rotation.rewrapped + rewrapped, cursor: last ? last.id : rotation.cursor };
  if (!page.has_more) {
    const remaining = await deps.tokens.countNotWrappedBy(rotation.to_version);
    next =
      remaining === 0
        ? { ...next, state: 'completed', completed_at: deps.clock.now().toISOString(), cursor: null }
        : { ...next, cursor: null, passes: next.passes + 1 };
  }
  return deps.store.transaction((uow) => deps.rotations.update(uow, next));
}

export interface RotationWorkerOptions {
  batchSize: number;
  /** Pause between batches, so serving traffic keeps priority. */
  pauseMs: number;
  onError: (error: unknown) => void;
}

/** Runs rotations in the background until stopped; resumes running ones at start. */
export class KeyRotationWorker {
  #stopped = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly deps: VaultDeps,
    private readonly options: RotationWorkerOptions,
  ) {}

  start(): void {
    this.#stopped = false;
    this.#loop = this.run();
  }

  /** Called after a rotation is started through the admin API. */
  poke(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  private async run(): Promise<void> {
    while (!this.#stopped) {
      try {
        const [rotation] = await this.deps.rotations.running();
        if (rotation) {
          await rewrapBatch(this.deps, rotation, this.options.batchSize);
          await this.pause(this.options.pauseMs);
          continue;
        }
      } catch (error) {
        this.options.onError(error);
        await this.pause(1_000);
        continue;
      }
      await this.pause(60_000);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.#wake = done;
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}
