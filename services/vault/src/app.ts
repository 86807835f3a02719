import type { Subscription } from '@vaultline/bus';
import { startOutboxRelay, type OutboxRelay } from '@vaultline/bus';
import type { VaultInternalApi } from '@vaultline/contracts';
import { createServiceHttp } from '@vaultline/http';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import type { VaultConfig } from './config';
import { collectionSpecs } from './data/collections';
import { StoreAuditRepository } from './data/audit.repository';
import { StoreCheckoutSessionRepository } from './data/checkout-session.repository';
import { StoreKeyRotationRepository } from './data/key-rotation.repository';
import { StoreTokenRepository } from './data/token.repository';
import { KeyRotationWorker, restoreActiveVersion } from './domain/keys/key-rotation';
import type { VaultKeys } from './domain/keys/vault-keys';
import type { VaultDeps } from './domain/ports';
import { adminRoutes } from './http/admin.routes';
import { checkoutRoutes } from './http/checkout.routes';
import { internalRoutes } from './http/internal.routes';
import { tokenRoutes } from './http/token.routes';
import { createVaultInternalApi } from './internal-api/vault-internal-api';
import { loadKeyMaterial } from './keys/load-key-material';
import { startVaultConsumers } from './messaging/vault-consumers';

export interface VaultApp extends ServiceApp {
  /** For tests and the leak scan: the use-case dependencies (keys included). */
  deps: VaultDeps;
  /** The internal API (detokenization) for callers in the same process; the HTTP route uses it too. */
  exposedApis: { vault: VaultInternalApi };
}

/** Composition root of the vault. `keys` may be injected (tests); otherwise they come from configuration. */
export function createApp(runtime: ServiceRuntime, config: VaultConfig, keys?: VaultKeys): VaultApp {
  const { store, bus, logger } = runtime;
  const deps: VaultDeps = {
    store,
    tokens: new StoreTokenRepository(store),
    audit: new StoreAuditRepository(store),
    rotations: new StoreKeyRotationRepository(store),
    sessions: new StoreCheckoutSessionRepository(store),
    keys: keys ?? loadKeyMaterial(config.keks, logger),
    ttl: runtime.ttl,
    clock: runtime.clock,
  };
  const worker = new KeyRotationWorker(deps, {
    batchSize: config.rotation.batchSize,
    pauseMs: config.rotation.pauseMs,
    onError: (error) => logger.error({ err: error }, 'key rotation batch failed; retrying'),
  });

  const internalApi = createVaultInternalApi(deps, runtime.verifier);

  const http = createServiceHttp({
    service: 'vault',
    verifier: runtime.verifier,
    logger,
    readiness: async () => {
      await store.ping();
      await runtime.ttl.ping();
    },
    routes: (router) => {
      tokenRoutes(router, deps);
      internalRoutes(router, internalApi);
      adminRoutes(router, deps, () => worker.poke());
      checkoutRoutes(router, deps, config.checkout);
    },
  });

  let relay: OutboxRelay | null = null;
  let consumers: Subscription | null = null;

  return {
    name: 'vault',
    http,
    deps,
    exposedApis: { vault: internalApi },
    async start() {
      for (const spec of collectionSpecs) await store.register(spec);
      await restoreActiveVersion(deps);
      relay = startOutboxRelay({ store, bus, logger });
      consumers = await startVaultConsumers({ bus, store, logger, deps });
      worker.start();
    },
    async stop() {
      await worker.stop();
      await consumers?.stop();
      await relay?.stop();
      consumers = null;
      relay = null;
    },
  };
}
