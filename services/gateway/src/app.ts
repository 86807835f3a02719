import { UnavailableError } from '@vaultline/core';
import { createServiceHttp } from '@vaultline/http';
import { metricsOf, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import { METRIC } from '@vaultline/metrics';
import type { GatewayConfig } from './config';
import { authenticateApiKey, issueApiKey, resolveApiKeyById, listApiKeys, mintApiKey, revokeApiKey, rollApiKey, type ApiKeys } from './domain/api-keys';
import { createMerchant, ensureBootstrapMerchant, getMerchant, listMerchants, updateMerchant, type Merchants } from './domain/merchants';
import { takeRequestToken } from './domain/rate-limit';
import {
  authenticateOperator,
  createOperator,
  resolveOperatorById,
  ensureBootstrapOperator,
  listOperators,
  revokeOperator,
  type Operators,
} from './domain/operators';
import { listAdminAudit, pruneAdminAudit, recordAdminAction, type AdminAudit } from './domain/admin-audit';
import { AdminRefusalLog, adminRetryAfter, countAdminRefusal } from './domain/admin-refusals';
import { AuditMaintenance } from './domain/audit-maintenance';
import { UPSTREAM_SERVICES, type UpstreamService } from './domain/routing';
import { gatewayCollections } from './data/collections';
import { StoreApiKeyRepository } from './data/api-key.repository';
import { CachedApiKeyRepository } from './data/api-key-cache';
import { StoreMerchantRepository } from './data/merchant.repository';
import { CachedMerchantRepository } from './data/merchant-cache';
import { StoreSettingRepository } from './data/setting.repository';
import { StoreOperatorRepository } from './data/operator.repository';
import { StoreAdminAuditRepository } from './data/admin-audit.repository';
import { loadOrCreatePepper } from './domain/pepper';
import type { Upstream } from './http/upstream';
import { HttpUpstream, checkHealth, healthCheckAgent } from './http/http-upstream';
import { InProcessUpstream } from './http/in-process-upstream';
import { adminRoutes } from './http/admin.routes';
import { internalRoutes } from './http/internal.routes';
import { createEdgeApp } from './http/edge';
import { docsRoutes } from './http/docs/docs.routes';
import { knownFilters } from './http/known-filters';
import { dashboardSessions } from './domain/dashboard-sessions';
import { TtlDashboardSessionRepository } from './data/dashboard-session.repository';
import { dashboardSessionRoutes, sessionOfRequest } from './http/dashboard-session';
import { dashboardApp } from './http/dashboard-app';
import { checkServiceHealth } from './domain/service-health';

/** Composition root of the gateway: the merchant edge, the admin API and the internal key API. */
export function createApp(runtime: ServiceRuntime, config: GatewayConfig): ServiceApp {
  const { store, logger, clock } = runtime;
  const metrics = metricsOf(runtime, 'gateway');
  let pepper = config.apiKeyPepper;
  const pepperSource = () => {
    if (!pepper) throw new UnavailableError('The gateway is starting.', 'starting');
    return pepper;
  };

  // Every merchant request reads its key and merchant: both come from short-lived caches (data/).
  const merchantRepository = new CachedMerchantRepository(new StoreMerchantRepository(store), { clock });
  const keyRepository = new CachedApiKeyRepository(new StoreApiKeyRepository(store), { clock });
  const mint = mintApiKey({ clock, pepper: pepperSource });
  const apiKeys: ApiKeys = {
    issue: issueApiKey({ merchants: merchantRepository, keys: keyRepository, mint }),
    authenticate: authenticateApiKey({ merchants: merchantRepository, keys: keyRepository, clock, pepper: pepperSource }),
    resolveById: resolveApiKeyById({ merchants: merchantRepository, keys: keyRepository, clock }),
    list: listApiKeys({ merchants: merchantRepository, keys: keyRepository }),
    revoke: revokeApiKey({ keys: keyRepository, clock }),
    roll: rollApiKey({ keys: keyRepository, mint, clock }),
  };
  const create = createMerchant({ merchants: merchantRepository, mint, clock });
  const merchants: Merchants = {
    create,
    get: getMerchant({ merchants: merchantRepository }),
    list: listMerchants({ merchants: merchantRepository }),
    update: updateMerchant({ merchants: merchantRepository }),
  };
  const ensureBootstrap = ensureBootstrapMerchant({ keys: keyRepository, createMerchant: create, pepper: pepperSource });
  const loadPepper = loadOrCreatePepper({ settings: new StoreSettingRepository(store) });

  // Operators are read from the store on every admin request (no cache): a revocation holds at once.
  const operatorRepository = new StoreOperatorRepository(store);
  const operators: Operators = {
    create: createOperator({ operators: operatorRepository, clock, pepper: pepperSource }),
    list: listOperators({ operators: operatorRepository }),
    revoke: revokeOperator({ operators: operatorRepository, clock }),
    authenticate: authenticateOperator({ operators: operatorRepository, pepper: pepperSource }),
    resolveById: resolveOperatorById({ operators: operatorRepository }),
  };
  const ensureBootstrapOperatorKey = ensureBootstrapOperator({ operators: operatorRepository, clock, pepper: pepperSource });
  const auditRepository = new StoreAdminAuditRepository(store);
  const audit: AdminAudit = { record: recordAdminAction({ audit: auditRepository, clock }), list: listAdminAudit({ audit: auditRepository }) };
  const refusalLimit = { ttl: runtime.ttl, perMinute: config.adminRefusalsPerMinute };
  const refusals = {
    retryAfter: adminRetryAfter(refusalLimit),
    count: countAdminRefusal(refusalLimit),
    log: new AdminRefusalLog({ record: audit.record, clock }),
  };
  const auditMaintenance = new AuditMaintenance({
    refusals: refusals.log,
    prune: pruneAdminAudit({ audit: auditRepository, clock, retentionDays: config.auditRetentionDays }),
    logger,
  });

  const publicBaseUrl = config.publicBaseUrl ?? runtime.publicBaseUrl;
  // A service on this thread (the embedded profile) has its routes mounted behind the edge; any other is reached over HTTP.
  const upstreams = Object.fromEntries(
    UPSTREAM_SERVICES.map((service): [UpstreamService, Upstream] => {
      const routes = runtime.inProcessRoutes?.[service];
      if (routes) return [service, new InProcessUpstream(routes)];
      const http = {
        url: runtime.serviceUrls[service],
        signer: runtime.signer,
        logger,
        timeoutMs: config.upstreamTimeoutMs,
        connectRetryMs: config.upstreamConnectRetryMs,
        tls: runtime.internalTls,
        bodyLimitBytes: config.bodyLimitBytes,
      };
      return [service, new HttpUpstream(http)];
    }),
  ) as Record<UpstreamService, Upstream>;

  const healthAgent = runtime.internalTls ? healthCheckAgent(runtime.internalTls) : undefined;
  const health = checkServiceHealth({
    clock,
    checks: [
      { name: 'gateway-store', check: () => store.ping() },
      ...UPSTREAM_SERVICES.map((service) => ({ name: service, check: () => checkHealth(runtime.serviceUrls[service], healthAgent) })),
    ],
  });
  const readiness = async () => {
    const failures: string[] = [];
    await store.ping().catch(() => failures.push('store'));
    await Promise.all(UPSTREAM_SERVICES.map((s) => checkHealth(runtime.serviceUrls[s], healthAgent).catch(() => failures.push(s))));
    if (!pepper) failures.push('starting');
    if (failures.length > 0) throw new UnavailableError(`Not ready: ${failures.sort().join(', ')} unavailable.`, 'not_ready');
  };

  const internalApp = createServiceHttp({
    service: 'gateway',
    publicBaseUrl,
    verifier: runtime.verifier,
    metrics,
    logger,
    readiness: () => store.ping(),
    routes: (router) => internalRoutes(router, apiKeys),
  });

  // Dashboard sessions: in the TTL store, under the keyed hash of their id; the key that opened one is checked on every request.
  const sessions = dashboardSessions({
    sessions: new TtlDashboardSessionRepository(runtime.ttl),
    apiKeys,
    operators,
    clock,
    pepper: pepperSource,
    limits: { idleMs: config.dashboardSession.idleSeconds * 1000, maxMs: config.dashboardSession.maxSeconds * 1000 },
  });
  const httpsConfigured = config.tls || publicBaseUrl.startsWith('https:');
  const cookies = { httpsConfigured, publicBaseUrl };
  const sessionOf = sessionOfRequest(sessions, cookies);

  const http = createEdgeApp({
    logger,
    metrics,
    // A browser that saw this once refuses plain http to the host for a year: only when https is how it is reached.
    hsts: config.tls || (config.publicBaseUrl?.startsWith('https:') ?? false),
    apiKeys,
    upstreams,
    rateLimit: takeRequestToken({ buckets: runtime.ttl, defaults: config.rateLimit }),
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    admin: adminRoutes({
      enabled: config.adminApiKey !== undefined,
      operators,
      audit,
      merchants,
      apiKeys,
      upstreams,
      bodyLimitBytes: config.bodyLimitBytes,
      logger,
      sessionOf,
      health,
      refusals,
      refused: metrics.counter(
        METRIC.adminRefused,
        'Admin requests refused: no key, a wrong or revoked key, a merchant session, or too many refusals from the address (reason: the error code).',
        ['reason'],
      ),
    }),
    sessionOf,
    audit,
    dashboardSession: dashboardSessionRoutes({
      sessions,
      sessionOf,
      cookies,
      merchants,
      maxAgeSeconds: config.dashboardSession.maxSeconds,
      signIns: { ttl: runtime.ttl, perMinute: config.dashboardSession.signInsPerMinute },
      audit,
      logger,
    }),
    dashboardApp: dashboardApp({ dir: config.dashboardDir }),
    readiness,
    docs: docsRoutes(publicBaseUrl),
    knownFilters: knownFilters(),
    publicBaseUrl,
  });

  return {
    name: 'gateway',
    http,
    internalHttp: internalApp,
    async start() {
      for (const spec of gatewayCollections) await store.register(spec);
      if (!pepper) {
        pepper = await loadPepper();
        logger.warn('API_KEY_PEPPER is not set: using a pepper generated and kept in the gateway store (set it in production)');
      }
      if (config.bootstrapApiKey) {
        const merchantId = await ensureBootstrap(config.bootstrapApiKey);
        logger.info({ merchant_id: merchantId }, 'bootstrap merchant ready');
      }
      if (config.adminApiKey) await ensureBootstrapOperatorKey(config.adminApiKey);
      else logger.info('ADMIN_API_KEY is not set: the admin API is disabled');
      auditMaintenance.start();
    },
    async stop() {
      await auditMaintenance.stop();
      await Promise.all(Object.values(upstreams).map((upstream) => upstream.close()));
      await healthAgent?.close();
    },
  };
}
