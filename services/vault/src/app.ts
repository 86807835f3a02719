import type { Subscription } from '@vaultline/bus';
import { assertSubscriptionsConsuming, startOutboxRelay, type OutboxRelay } from '@vaultline/bus';
import type { VaultInternalApi } from '@vaultline/contracts';
import { serviceHttp } from '@vaultline/http';
import { idempotencyOf, metricsOf, opsRoutes, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import type { VaultConfig } from './config';
import { registerCollections } from './data/collections';
import { StoreAuditRepository } from './data/audit.repository';
import { StoreCheckoutSessionRepository } from './data/checkout-session.repository';
import { StoreKeyRotationRepository } from './data/key-rotation.repository';
import { StoreTokenRepository } from './data/token.repository';
import { listDetokenizeAudit } from './domain/audit/list-detokenize-audit';
import { SessionArrivals } from './domain/checkout/session-arrivals';
import {
  abandonCheckoutSession,
  checkoutFraming,
  checkoutPageStatus,
  checkoutStatus,
  closeCanceledSession,
  confirmStoredCard,
  openCheckoutSession,
  recordPaymentProgress,
  reopenAfterFailedAttempt,
  submitCheckoutCard,
} from './domain/checkout/checkout-flow';
import { getCheckoutBranding, sessionLogoImage, updateCheckoutBranding } from './domain/branding/manage-branding';
import { StoreCheckoutBrandingRepository } from './data/checkout-branding.repository';
import { checkoutSettingsRoutes } from './http/checkout-settings.routes';
import {
  getKeyRotation,
  getKeyStatus,
  listKeyRotations,
  KeyRotationWorker,
  restoreActiveVersion,
  rewrapBatch,
  startKeyRotation,
} from './domain/keys/key-rotation';
import type { TransactionRunner } from './domain/ports';
import { createToken, importToken } from './domain/tokens/create-token';
import { auditRefusedDetokenize, detokenize } from './domain/tokens/detokenize';
import { deleteToken, getToken, listTokens } from './domain/tokens/manage-tokens';
import { adminRoutes } from './http/admin.routes';
import { checkoutRoutes } from './http/checkout.routes';
import {
  recordAuthenticationRequired,
  rememberPageAccept,
  returnFromAuthentication,
  startAuthentication,
  testChallenge,
} from './domain/checkout/checkout-authentication';
import { internalRoutes } from './http/internal.routes';
import { tokenRoutes } from './http/token.routes';
import { createVaultInternalApi } from './http/vault-internal-api';
import { checkoutEventsConsumer } from './messaging/checkout-events.consumer';

/**
 * A status read for a session not stored yet waits up to a second for its event (woken at once when this
 * instance stores it): the hosted page reads the status as soon as the consumer lands there, which is
 * usually a moment before checkout.session.opened has reached the vault.
 */
const SESSION_ARRIVAL_WAIT = { maxMs: 1_000, recheckMs: 100, maxWaiting: 1_000 };

export interface VaultApp extends ServiceApp {
  /** The internal API (detokenization) for callers in the same process; the HTTP route uses it too. */
  exposedApis: { vault: VaultInternalApi };
}

/** Composition root of the vault: repositories, then every use case with the ports it uses, then routes and consumers. */
export function createApp(runtime: ServiceRuntime, config: VaultConfig): VaultApp {
  const metrics = metricsOf(runtime, 'vault');
  const { store, bus, logger, ttl, clock } = runtime;
  const { keys } = config;
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const tokens = new StoreTokenRepository(store);
  const audit = new StoreAuditRepository(store);
  const rotations = new StoreKeyRotationRepository(store);
  const sessions = new StoreCheckoutSessionRepository(store);
  const brandingRecords = new StoreCheckoutBrandingRepository(store);
  const branding = getCheckoutBranding({ branding: brandingRecords });

  const create = createToken({ tokens, transaction, keys, ttl, clock });
  const worker = new KeyRotationWorker(
    { rotations, rewrapBatch: rewrapBatch({ rotations, tokens, keys, transaction, clock }) },
    {
      batchSize: config.rotation.batchSize,
      pauseMs: config.rotation.pauseMs,
      onError: (error) => logger.error({ err: error }, 'key rotation batch failed; retrying'),
    },
  );
  const internalApi = createVaultInternalApi(
    { detokenize: detokenize({ tokens, audit, transaction, keys, ttl, clock }), auditRefusedDetokenize: auditRefusedDetokenize({ audit, transaction, clock }) },
    runtime.verifier,
  );
  const restoreRotatedVersion = restoreActiveVersion({ rotations, keys });
  const arrivals = new SessionArrivals();
  const checkoutUseCases = {
    openCheckoutSession: openCheckoutSession({ sessions, clock, arrivals }),
    recordPaymentProgress: recordPaymentProgress({ sessions }),
    closeCanceledSession: closeCanceledSession({ sessions }),
    recordAuthenticationRequired: recordAuthenticationRequired({ sessions }),
    reopenAfterFailedAttempt: reopenAfterFailedAttempt({ sessions }),
  };

  const { http, routes } = serviceHttp({
    service: 'vault',
    publicBaseUrl: runtime.publicBaseUrl,
    verifier: runtime.verifier,
    metrics,
    idempotency: idempotencyOf(runtime),
    logger,
    readiness: async () => {
      await store.ping();
      await ttl.ping();
      assertSubscriptionsConsuming(bus);
    },
    routes: (router) => {
      opsRoutes(router, { store });
      tokenRoutes(router, {
        createToken: create,
        importToken: importToken({ tokens, transaction, keys, ttl, clock }),
        getToken: getToken({ tokens, keys }),
        listTokens: listTokens({ tokens, keys }),
        deleteToken: deleteToken({ tokens, transaction, ttl, clock }),
      });
      internalRoutes(router, internalApi);
      adminRoutes(router, {
        startKeyRotation: startKeyRotation({ rotations, tokens, keys, transaction, clock }),
        getKeyRotation: getKeyRotation({ rotations, tokens }),
        listKeyRotations: listKeyRotations({ rotations, tokens }),
        getKeyStatus: getKeyStatus({ keys }),
        listDetokenizeAudit: listDetokenizeAudit({ audit }),
        onRotationStarted: () => worker.poke(),
      });
      checkoutRoutes(router, {
        submitCheckoutCard: submitCheckoutCard({ sessions, createToken: create, ttl, clock, limits: config.checkout }),
        confirmStoredCard: confirmStoredCard({ sessions, tokens, keys, transaction, ttl, clock, limits: config.checkout }),
        abandonCheckoutSession: abandonCheckoutSession({ sessions, transaction, clock }),
        checkoutPageStatus: checkoutPageStatus({ status: checkoutStatus({ sessions, clock, arrivals, wait: SESSION_ARRIVAL_WAIT }), branding }),
        checkoutFraming: checkoutFraming({ sessions, branding }),
        sessionLogoImage: sessionLogoImage({ sessions, branding: brandingRecords }),
        startAuthentication: startAuthentication({ sessions }),
        returnFromAuthentication: returnFromAuthentication({ sessions, transaction, clock }),
        testChallenge: testChallenge({ sessions }),
        rememberPageAccept: rememberPageAccept({ ttl }),
      });
      checkoutSettingsRoutes(router, {
        getCheckoutBranding: branding,
        updateCheckoutBranding: updateCheckoutBranding({ branding: brandingRecords, transaction, clock }),
      });
    },
  });

  let relay: OutboxRelay | null = null;
  let consumers: Subscription | null = null;

  return {
    name: 'vault',
    http,
    routes,
    exposedApis: { vault: internalApi },
    async start() {
      if (config.generatedKeyFile) {
        logger.warn(
          { path: config.generatedKeyFile },
          'using vault keys generated into a local key file; production must configure VAULT_KEK_KEYS or VAULT_KEK_FILE and VAULT_FINGERPRINT_KEY',
        );
      }
      if (config.generatedKeyFileInDataDir) {
        logger.warn(
          { path: config.generatedKeyFile },
          'DEV_KEYS_IN_DATA_DIR: the generated keys are kept in DATA_DIR beside the data they decrypt (development only): a copy of DATA_DIR is a copy of the card data',
        );
      }
      await registerCollections(store);
      await restoreRotatedVersion();
      relay = startOutboxRelay({ store, bus, logger, metrics });
      consumers = await checkoutEventsConsumer({ bus, store, logger }, checkoutUseCases);
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
