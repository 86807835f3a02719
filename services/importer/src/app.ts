import { assertSubscriptionsConsuming, createEventConsumer, startOutboxRelay, type OutboxRelay, type Subscription } from '@vaultline/bus';
import { createEgressClient } from '@vaultline/egress';
import { InternalClient, serviceHttp } from '@vaultline/http';
import { METRIC, type ServiceMetrics } from '@vaultline/metrics';
import { idempotencyOf, metricsOf, opsRoutes, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { GatewayKeyIssuerClient } from './clients/gateway-key-issuer.client';
import type { ImporterConfig } from './config';
import { assignTestModeToEarlierImports, registerImportCollections, StoreImportJobRepository } from './data/import-job.repository';
import { createImport } from './domain/create-import';
import { getImport, listImports } from './domain/find-imports';
import { pauseImport, UnknownProviderError } from './domain/import-errors';
import { importJobWriter } from './domain/import-job/import-job-writer';
import { accountForOutcome, completeIfAccountedFor, failImport, revokeImportKey } from './domain/import-lifecycle';
import type { ProviderContext } from './domain/import-provider';
import type { TransactionRunner } from './domain/ports';
import { ImportScheduler } from './domain/import-scheduler';
import { runImport } from './domain/run-import';
import { importRoutes } from './http/imports.routes';
import { isImportTokenCreated, TOKEN_CREATED_GROUP, tokenCreatedConsumer } from './messaging/token-created.consumer';
import { REPLACEMENTS } from './providers/provider-a/provider-a.mapper';
import { importProviderOf, type ImportProviderId } from './providers/registry';

/** Composition root of the importer. */
export function createApp(runtime: ServiceRuntime, config: ImporterConfig): ServiceApp {
  const metrics = metricsOf(runtime, 'importer');
  const { store, bus, logger, clock } = runtime;
  const log = logger.child({ component: 'importer' });
  const providerBaseUrls: Record<ImportProviderId, string> = { provider_a: config.PROVIDER_A_BASE_URL.replace(/\/$/, '') };
  const egress = createEgressClient({
    allowPrivate: false,
    httpsOnly: !config.IMPORTER_ALLOW_PRIVATE_PROVIDER,
    connectTimeoutMs: 5_000,
    totalTimeoutMs: config.IMPORTER_PROVIDER_TIMEOUT_MS,
    maxResponseBytes: 1024 * 1024,
    allowPrivateHosts: config.IMPORTER_ALLOW_PRIVATE_PROVIDER ? Object.values(providerBaseUrls) : [],
    connectionsPerOrigin: config.IMPORTER_CONCURRENCY + config.IMPORTER_LOOKAHEAD + 4,
    proxy: runtime.egressProxy,
  });
  const gateway = new InternalClient({ signer: runtime.signer, audience: 'gateway', baseUrl: runtime.serviceUrls.gateway, tls: runtime.internalTls });

  const jobs = new StoreImportJobRepository(store);
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const sealer = new AesGcmSecretSealer(config.secretKey);
  const issuer = new GatewayKeyIssuerClient(gateway);
  const writer = importJobWriter({ jobs, transaction, clock });
  const revokeKey = revokeImportKey({ issuer, writer, log });
  const complete = completeIfAccountedFor({ writer, clock, log, revokeImportKey: revokeKey });
  const fail = failImport({ writer, clock, log, revokeImportKey: revokeKey });
  const accountFor = accountForOutcome({ writer, completeIfAccountedFor: complete });

  const providerContext = (provider: ImportProviderId): ProviderContext => ({
    http: egress,
    baseUrl: providerBaseUrls[provider],
    retry: {
      maxAttempts: config.IMPORTER_RETRY_ATTEMPTS,
      baseDelayMs: config.IMPORTER_RETRY_BASE_MS,
      maxBackoffMs: config.IMPORTER_MAX_BACKOFF_MS,
      maxRetryAfterMs: config.IMPORTER_MAX_RETRY_AFTER_MS,
      maxRateLimitedAttempts: config.IMPORTER_MAX_RATE_LIMITED,
    },
    sleep: pauseImport,
    random: Math.random,
    pageSize: config.IMPORTER_PAGE_SIZE,
    lookahead: config.IMPORTER_LOOKAHEAD,
  });

  const run = runImport({
    jobs,
    writer,
    issuer,
    sealer,
    clock,
    log,
    accountForOutcome: accountFor,
    completeIfAccountedFor: complete,
    failImport: fail,
    revokeImportKey: revokeKey,
    openSource: (provider, credentials) => {
      const plugin = importProviderOf(provider);
      if (!plugin) throw new UnknownProviderError(provider);
      return plugin.open(plugin.credentialsSchema.parse(credentials), providerContext(plugin.id as ImportProviderId));
    },
    settings: {
      cdeImportUrl: `${runtime.publicBaseUrl.replace(/\/$/, '')}/cde-import`,
      replacements: REPLACEMENTS,
      workerId: config.IMPORTER_WORKER_ID,
      concurrency: config.IMPORTER_CONCURRENCY,
      checkpointEvery: config.IMPORTER_CHECKPOINT_EVERY,
      leaseMs: config.IMPORTER_LEASE_MS,
      importKeyTtlMs: config.IMPORTER_IMPORT_KEY_TTL_MS,
      endpointAttempts: config.IMPORTER_RETRY_ATTEMPTS,
      retryBaseDelayMs: config.IMPORTER_RETRY_BASE_MS,
      reforwardGraceMs: config.IMPORTER_REFORWARD_GRACE_MS,
      settleTimeoutMs: config.IMPORTER_SETTLE_TIMEOUT_MS,
      settlePollMs: 100,
    },
  });
  const scheduler = new ImportScheduler(
    { jobs, runImport: run, revokeImportKey: revokeKey, clock, log },
    { workerId: config.IMPORTER_WORKER_ID, scanIntervalMs: config.IMPORTER_SCAN_INTERVAL_MS },
  );

  observeImportProgress(metrics, jobs);

  const { http, routes } = serviceHttp({
    service: 'importer',
    publicBaseUrl: runtime.publicBaseUrl,
    verifier: runtime.verifier,
    metrics,
    idempotency: idempotencyOf(runtime),
    logger,
    readiness: async () => {
      await store.ping();
      assertSubscriptionsConsuming(bus);
    },
    routes: (router) => {
      opsRoutes(router, { store });
      importRoutes(router, {
        createImport: createImport({ jobs, transaction, sealer, clock, pluginOf: importProviderOf, wake: (scope, jobId) => scheduler.wake(scope, jobId) }),
        listImports: listImports({ jobs }),
        getImport: getImport({ jobs }),
      });
    },
  });

  let relay: OutboxRelay | null = null;
  let consumer: Subscription | null = null;

  return {
    name: 'importer',
    http,
    routes,
    async start() {
      await registerImportCollections(store);
      await assignTestModeToEarlierImports(store);
      relay = startOutboxRelay({ store, bus, logger, metrics });
      consumer = await createEventConsumer({
        bus,
        store,
        group: TOKEN_CREATED_GROUP,
        logger,
        interested: isImportTokenCreated,
        handlers: { 'token.created': tokenCreatedConsumer(accountFor) },
      });
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await consumer?.stop();
      consumer = null;
      await relay?.stop();
      relay = null;
      await Promise.allSettled([egress.close(), gateway.close()]);
    },
  };
}

const IN_PROGRESS = ['preparing', 'running'] as const;
/** The progress gauges read at most this many jobs in progress per scrape. */
const PROGRESS_SCAN_LIMIT = 1_000;

/** Import progress at scrape time: jobs in progress by state, and their payment methods found and accounted for. */
function observeImportProgress(metrics: ServiceMetrics, jobs: StoreImportJobRepository): void {
  const inProgress = async () => (await jobs.listAcrossMerchants({ states: [...IN_PROGRESS] }, { limit: PROGRESS_SCAN_LIMIT })).items;
  metrics.gauge(METRIC.importJobs, 'Import jobs in progress, by state.', ['state'], async () => {
    const running = await inProgress();
    return IN_PROGRESS.map((state) => ({ labels: { state }, value: running.filter((job) => job.state === state).length }));
  });
  metrics.gauge(
    METRIC.importPaymentMethods,
    'Payment methods of the import jobs in progress: found so far (total), imported, updated, failed.',
    ['count'],
    async () => {
      const sums = { total: 0, imported: 0, updated: 0, failed: 0 };
      for (const job of await inProgress()) for (const count of Object.keys(sums) as Array<keyof typeof sums>) sums[count] += job.counts[count];
      return Object.entries(sums).map(([count, value]) => ({ labels: { count }, value }));
    },
  );
}
