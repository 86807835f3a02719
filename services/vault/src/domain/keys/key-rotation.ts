import { ConflictError, NotFoundError, newId, type Clock } from '@vaultline/core';
import { rewrapRecordKey } from '@vaultline/crypto';
import { ConcurrentModificationError, SYSTEM_SCOPE, type Page, type PageRequest } from '@vaultline/store';
import type { KeyRotationRepository, TokenRepository, TransactionRunner } from '../ports';
import type { KeyRotationRecord } from './key-rotation-record';
import type { VaultKeys } from './vault-keys';

export interface StartKeyRotationPorts {
  rotations: KeyRotationRepository;
  tokens: Pick<TokenRepository, 'countNotWrappedBy'>;
  keys: VaultKeys;
  transaction: TransactionRunner;
  clock: Clock;
}
export type StartKeyRotation = (toVersion: number) => Promise<KeyRotationRecord>;

/**
 * Starts a rotation: `toVersion` becomes the active KEK at once (new tokens use it), and the
 * background job re-wraps every existing data key. Field ciphertexts are untouched, so tokens
 * keep decrypting throughout: the ring keeps every configured version.
 */
export function startKeyRotation({ rotations, tokens, keys, transaction, clock }: StartKeyRotationPorts): StartKeyRotation {
  return async (toVersion) => {
    const running = await rotations.running();
    if (running.length > 0) throw new ConflictError('key_rotation_in_progress', `Rotation ${running[0]!.id} is still running.`);
    keys.activate(toVersion);
    const total = await tokens.countNotWrappedBy(toVersion);
    const now = clock.now().toISOString();
    return transaction((uow) =>
      rotations.insert(uow, {
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
  };
}

/** The rotation and how many tokens it still has to re-wrap. */
export type GetKeyRotation = (id: string) => Promise<{ rotation: KeyRotationRecord; remaining: number }>;

export function getKeyRotation({
  rotations,
  tokens,
}: {
  rotations: KeyRotationRepository;
  tokens: Pick<TokenRepository, 'countNotWrappedBy'>;
}): GetKeyRotation {
  return async (id) => {
    const record = await rotations.get(id);
    if (!record) throw new NotFoundError('key_rotation');
    const remaining = record.state === 'completed' ? 0 : await tokens.countNotWrappedBy(record.to_version);
    return { rotation: record, remaining };
  };
}

/** The rotations, newest first by default, each with what it still has to re-wrap (0 once completed). */
export type ListKeyRotations = (page: PageRequest) => Promise<Page<{ rotation: KeyRotationRecord; remaining: number }>>;

export function listKeyRotations({
  rotations,
  tokens,
}: {
  rotations: Pick<KeyRotationRepository, 'list'>;
  tokens: Pick<TokenRepository, 'countNotWrappedBy'>;
}): ListKeyRotations {
  return async (page) => {
    const found = await rotations.list(page);
    const items = await Promise.all(
      found.items.map(async (rotation) => ({ rotation, remaining: rotation.state === 'completed' ? 0 : await tokens.countNotWrappedBy(rotation.to_version) })),
    );
    return { ...found, items };
  };
}

/** What an operator checks before and during a rotation: the active KEK version and the versions the ring holds. */
export type GetKeyStatus = () => { active_version: number; versions: number[] };

export const getKeyStatus =
  ({ keys }: { keys: VaultKeys }): GetKeyStatus =>
  () => ({ active_version: keys.ring.activeVersion, versions: keys.ring.versions() });

export type RestoreActiveVersion = () => Promise<void>;

/** After a restart: the version of the latest rotation stays active even if configuration still names an older one. */
export function restoreActiveVersion({ rotations, keys }: { rotations: KeyRotationRepository; keys: VaultKeys }): RestoreActiveVersion {
  return async () => {
    const latest = await rotations.latest();
    if (latest && keys.ring.activeVersion !== latest.to_version && keys.canActivate(latest.to_version)) keys.activate(latest.to_version);
  };
}

export interface RewrapBatchPorts {
  rotations: KeyRotationRepository;
  tokens: TokenRepository;
  keys: VaultKeys;
  transaction: TransactionRunner;
  clock: Clock;
}
export type RewrapBatch = (rotation: KeyRotationRecord, batchSize: number) => Promise<KeyRotationRecord>;

/**
 * Re-wraps one batch of the rotation; returns the rotation as saved (state completed at the end).
 * Each token is updated in its own unit of work with its optimistic version, so a token changed
 * meanwhile (an import replacing its card data) is simply picked up again in the next pass.
 */
export function rewrapBatch({ rotations, tokens, keys, transaction, clock }: RewrapBatchPorts): RewrapBatch {
  return async (rotation, batchSize) => {
    const page = await tokens.listNotWrappedBy(rotation.to_version, { limit: batchSize, after: rotation.cursor ?? undefined });
    let rewrapped = 0;
    for (const token of page.items) {
      if (token.status !== 'active' || !token.wrapped_key) continue;
      const context = { merchantId: token.merchant_id, recordId: token.id };
      const key = rewrapRecordKey(keys.ring, context, { kek_version: token.kek_version, wrapped: token.wrapped_key }, rotation.to_version);
      try {
        await transaction((uow) => tokens.update(uow, { ...token, kek_version: key.kek_version, wrapped_key: key.wrapped }));
        rewrapped++;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError)) throw error;
      }
    }
    const last = page.items.at(-1);
    let next: KeyRotationRecord = { ...rotation, rewrapped: rotation.rewrapped + rewrapped, cursor: last ? last.id : rotation.cursor };
    if (!page.has_more) {
      const remaining = await tokens.countNotWrappedBy(rotation.to_version);
      next =
        remaining === 0
          ? { ...next, state: 'completed', completed_at: clock.now().toISOString(), cursor: null }
          : { ...next, cursor: null, passes: next.passes + 1 };
    }
    return transaction((uow) => rotations.update(uow, next));
  };
}

export interface RotationWorkerOptions {
  batchSize: number;
  /** Pause between batches, so serving traffic keeps priority. */
  pauseMs: number;
  onError: (error: unknown) => void;
}

/**
 * Runs rotations in the background until stopped; resumes running ones at start. Not a use case
 * but the loop that calls one (rewrapBatch), with a lifecycle the composition root drives.
 */
export class KeyRotationWorker {
  #stopped = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly ports: { rotations: Pick<KeyRotationRepository, 'running'>; rewrapBatch: RewrapBatch },
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
        const [rotation] = await this.ports.rotations.running();
        if (rotation) {
          await this.ports.rewrapBatch(rotation, this.options.batchSize);
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
