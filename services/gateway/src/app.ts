import { UnavailableError } from '@vaultline/core';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { createServiceHttp } from '@vaultline/http';
import type { ServiceApp, ServiceRuntime } from '@vaultline/runtime';
import type { GatewayConfig } from './config';
import { ApiKeys } from './domain/api-keys';
import { Merchants } from './domain/merchants';
import { UPSTREAM_SERVICES, type UpstreamService } from './domain/routing';
import { gatewayCollections } from './data/collections';
import { StoreApiKeyRepository } from './data/api-key.repository';
import { StoreMerchantRepository } from './data/merchant.repository';
import { loadOrCreatePepper } from './data/settings.repository';
import { UpstreamProxy } from './http/upstream-proxy';
import { InProcessHandoff, inProcessAppOf, type InProcessApp } from './http/in-process-handoff';
import { adminRouter } from './http/admin.router';
import { internalRoutes } from './http/internal.router';
import { createEdgeApp } from './http/edge';
import { renderDocsPage } from './http/docs-page';

/** Composition root of the gateway: the merchant edge, the admin API and the internal key API. */
export function createApp(runtime: ServiceRuntime, config: GatewayConfig): ServiceApp {
  const { store, logger, clock } = runtime;
  let pepper = config.apiKeyPepper;
  const pepperSource = () => {
    if (!pepper) throw new UnavailableError('The gateway is starting.', 'starting');
    return pepper;
  };

  const merchantRepository = new StoreMerchantRepository(store);
  const keyRepository = new StoreApiKeyRepository(store);
  const apiKeys = new ApiKeys({ merchants: merchantRepository, keys: keyRepository, clock, pepper: pepperSource });
  const merchants = new Merchants({ merchants: merchantRepository, keys: keyRepository, apiKeys, clock, pepper: pepperSource });

  const serviceUrls = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, runtime.serviceUrls[s]])) as Record<UpstreamService, string>;
  const proxy = new UpstreamProxy({ signer: runtime.signer, serviceUrls, logger, timeoutMs: config.upstreamTimeoutMs });
  const inProcessApps: Partial<Record<UpstreamService, InProcessApp>> = {};
  for (const service of UPSTREAM_SERVICES) {
    const app = runtime.inProcessApps?.[service];
    if (app) inProcessApps[service] = inProcessAppOf(app);
  }
  const channels = runtime.threadedApps ?? {};
  const inProcess =
    Object.keys(inProcessApps).length + Object.keys(channels).length > 0
      ? new InProcessHandoff({ apps: inProcessApps, channels, signer: runtime.signer, logger, bodyLimitBytes: config.bodyLimitBytes, timeoutMs: config.upstreamTimeoutMs })
      : undefined;

  const readiness = async () => {
    const failures: string[] = [];
    await store.ping().catch(() => failures.push('store'));
    await Promise.all(UPSTREAM_SERVICES.map((s) => proxy.checkHealth(s).catch(() => failures.push(s))));
    if (!pepper) failures.push('starting');
    if (failures.length > 0) throw new UnavailableError(`Not ready: ${failures.sort().join(', ')} unavailable.`, 'not_ready');
  };

  const openApiJson = memo(() => JSON.stringify(buildOpenApiDocument({ serverUrl: config.publicBaseUrl ?? runtime.publicBaseUrl })));
  const docsHtml = memo(() => renderDocsPage(buildOpenApiDocument({ serverUrl: config.publicBaseUrl ?? runtime.publicBaseUrl })));

  const internalApp = createServiceHttp({
    service: 'gateway',
    verifier: runtime.verifier,
    logger,
    readiness: () => store.ping(),
    routes: internalRoutes(apiKeys),
  });

  const http = createEdgeApp({
    logger,
    apiKeys,
    proxy,
    inProcess,
    bodyLimitBytes: config.bodyLimitBytes,
    internalApp,
    admin: adminRouter({ adminApiKey: config.adminApiKey, merchants, apiKeys, proxy, bodyLimitBytes: config.bodyLimitBytes }),
    readiness,
    openApiJson,
    docsHtml,
  });

  return {
    name: 'gateway',
    http,
    async start() {
      for (const spec of gatewayCollections) await store.register(spec);
      if (!pepper) {
        pepper = await loadOrCreatePepper(store);
        logger.warn('API_KEY_PEPPER is not set: using a pepper generated and kept in the gateway store (set it in production)');
      }
      if (config.bootstrapApiKey) {
        const merchantId = await merchants.ensureBootstrap(config.bootstrapApiKey);
        logger.info({ merchant_id: merchantId }, 'bootstrap merchant ready');
      }
      if (!config.adminApiKey) logger.info('ADMIN_API_KEY is not set: the admin API is disabled');
    },
    async stop() {
      await proxy.close();
    },
  };
}

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
