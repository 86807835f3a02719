import { forwardedHeadersOf, hostedPageReturnUrl, hostedPageUrl } from '@vaultline/contracts';
import type { Scope } from '@vaultline/core';
import { assertSubscriptionsConsuming, startOutboxRelay, type OutboxRelay, type Subscription } from '@vaultline/bus';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { createEgressClient } from '@vaultline/egress';
import { InternalClient, serviceHttp } from '@vaultline/http';
import { idempotencyOf, metricsOf, opsRoutes, type ServiceApp, type ServiceRuntime } from '@vaultline/runtime';
import type { PaymentOrchestratorConfig } from './config';
import { orchestratorCollections } from './data/collections';
import { migrateToModes } from './data/mode-migration';
import { StoreCredentialRepository } from './data/credential.repository';
import { StoreCustomerRepository, StorePaymentMethodRepository } from './data/customer.repository';
import { CachedFlowMatrixRepository } from './data/flow-matrix-cache';
import { CachedProcessorAccountRepository } from './data/processor-account-cache';
import { StoreFlowMatrixRepository, StoreFlowRepository } from './data/flow.repository';
import { StorePaymentRepository } from './data/payment.repository';
import { StoreProcessorAccountRepository, StoreProcessorNotificationRepository } from './data/processor-account.repository';
import { StoreTransactionRepository } from './data/transaction.repository';
import { StoreDisputeRepository } from './data/dispute.repository';
import { recordDispute } from './domain/disputes/record-dispute';
import { simulatedChargeback } from './domain/disputes/simulated-chargeback';
import { settleLateCapture } from './domain/payment/settle-late-capture';
import { getDispute, listDisputes, listPaymentDisputes, openTestDispute } from './domain/disputes/manage-disputes';
import { acceptDispute, submitDisputeEvidence } from './domain/disputes/answer-dispute';
import { disputeRoutes } from './http/disputes.routes';
import { StoreEarlyFraudWarningRepository } from './data/early-fraud-warning.repository';
import { StoreRoutingStatsRepository } from './data/routing-stats.repository';
import { CachedRoutingStatsRepository } from './data/routing-stats-cache';
import { bucketMsOf } from './domain/routing/routing-stats';
import type { RoutingPorts } from './domain/routing/routing-ports';
import { getRoutingStats } from './domain/routing/query-routing-stats';
import { routingRoutes } from './http/routing.routes';
import { recordEarlyFraudWarning } from './domain/fraud-warnings/record-early-fraud-warning';
import { simulatedFraudWarning } from './domain/fraud-warnings/simulated-fraud-warning';
import { getEarlyFraudWarning, listEarlyFraudWarnings } from './domain/fraud-warnings/query-early-fraud-warnings';
import { earlyFraudWarningRoutes } from './http/early-fraud-warnings.routes';
import { StorePaymentRequestRepository } from './data/payment-request.repository';
import { pruneExpiredPaymentRequests, type PruneExpiredPaymentRequests } from './domain/payment/payment-requests';
import { advancePayment } from './domain/payment/advance-payment';
import { capturePayment } from './domain/payment/capture-payment';
import { completeCheckoutSession } from './domain/payment/complete-checkout-session';
import { returnFromAuthentication } from './domain/payment/return-from-authentication';
import { abandonCheckoutSession } from './domain/payment/abandon-checkout-session';
import { createPayment } from './domain/payment/create-payment';
import { createSubsequentPayment } from './domain/payment/create-subsequent-payment';
import { createEarlierPayment } from './domain/payment/create-earlier-payment';
import {
  createCustomer,
  getCustomer,
  getPaymentMethod,
  listCustomerPaymentMethods,
  listCustomers,
  revokePaymentMethod,
} from './domain/customers/manage-customers';
import { storePaymentMethod } from './domain/payment/store-payment-method';
import { createFlow, getFlow, getFlowMatrix, listFlows, putFlowMatrix } from './domain/flows/manage-flows';
import { explainFlow } from './domain/routing/explain-flow';
import {
  createProcessorAccount,
  deleteProcessorAccount,
  getProcessorAccount,
  listProcessorAccounts,
  updateProcessorAccount,
} from './domain/processor-accounts/manage-processor-accounts';
import { PaymentRunner } from './domain/payment/payment-runner';
import type { TransactionRunner } from '@vaultline/store';
import type { Payment } from './domain/payment/payment';
import type { UnitOfWork } from '@vaultline/store';
import { getPayment, listPayments, listTransactions } from './domain/payment/query-payments';
import { reportPayments } from './domain/reports/payment-report';
import { reportRoutes } from './http/reports.routes';
import { flowRoutes } from './http/flows.routes';
import { paymentRoutes } from './http/payments.routes';
import { customerRoutes } from './http/customers.routes';
import { earlierPaymentRoutes } from './http/earlier-payments.routes';
import { processorAccountRoutes } from './http/processor-accounts.routes';
import { processorRoutes } from './http/processors.routes';
import { processorNotificationRoutes } from './http/processor-notifications.routes';
import { receiveProcessorNotification, wakePayment } from './domain/processor-notifications/receive-processor-notification';
import { voidStrayAuthorization } from './domain/payment/void-stray-authorization';
import { notifiedAuthentication } from './domain/payment/notified-authentication';
import { AfterSaleWorker } from './domain/refunds/after-sale-worker';
import { afterSaleNotifications } from './domain/refunds/after-sale-notifications';
import { cancelPayment, expireAuthorizations, settleVoidByNotification } from './domain/payment/cancel-payment';
import { advanceRefund, wakeRefund } from './domain/refunds/advance-refund';
import { createRefund } from './domain/refunds/create-refund';
import { getRefund, listPaymentRefunds, listRefunds } from './domain/refunds/query-refunds';
import { StoreRefundRepository } from './data/refund.repository';
import { afterSaleRoutes } from './http/after-sale.routes';
import { checkoutSessionCompletedConsumer } from './messaging/checkout-session-completed.consumer';
import { countPaymentStatuses } from './messaging/payment-status-metrics';
import { countNotificationRejections } from './http/notification-rejections';
import { accountPolicy } from './processors/account-policy';
import { destinationsOfPlugins, hostModeCheck, processorDestinationCheck } from './processors/processor-destinations';
import { openProcessors, processorPlugins } from './processors/registry';
import type { ProcessorPlugins } from './processors/processor-plugin';
import { processorDirectory } from './processors/processor-directory';
import type { ProcessorTransport } from './processors/transport-port';
import { createProcessorTransport, httpForwardPayment, inProcessForwardPayment } from './clients/forwarder-egress-transport';

export interface PaymentOrchestratorApp extends ServiceApp {
  /** The background worker (tests move their clock, then run what is due). */
  readonly runner: PaymentRunner;
  /** Deletes the payment requests' Idempotency-Key records older than IDEMPOTENCY_KEY_TTL (also run every hour). */
  readonly pruneExpiredPaymentRequests: PruneExpiredPaymentRequests;
  /** Refunds, expiring authorizations and unconfirmed voids (tests move their clock, then run what is due). */
  readonly afterSale: AfterSaleWorker;
}

/** How often expired Idempotency-Key records are pruned (a repeat after expiry is a new request whether or not its record is gone yet). */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface PaymentOrchestratorOverrides {
  /** Tests may reach processors their own way (a placeholder-filling transport to stand-ins). */
  transport?: ProcessorTransport;
  /** The processor plugins to run with (default: the registry); a test registers one of its own here. */
  plugins?: ProcessorPlugins;
  /** Routing's random source, in [0, 1) (default Math.random): tests and the bench give a seeded one, so decisions repeat. */
  random?: () => number;
}

export function createApp(runtime: ServiceRuntime, config: PaymentOrchestratorConfig, overrides: PaymentOrchestratorOverrides = {}): PaymentOrchestratorApp {
  const { store, bus, logger, clock } = runtime;
  const metrics = metricsOf(runtime, 'payment-orchestrator');
  const transaction: TransactionRunner = (work) => store.transaction(work);
  const plugins: ProcessorPlugins = overrides.plugins ?? processorPlugins;
  const processors = openProcessors(plugins, config.processors, { clock });
  const payments = new StorePaymentRepository(store);
  const transactions = new StoreTransactionRepository(store);
  const credentials = new StoreCredentialRepository(store);
  const paymentRequests = new StorePaymentRequestRepository(store);
  const requestPorts = { paymentRequests, transaction, clock, requestRetentionMs: config.requestRetentionMs };
  const pruneRequests = pruneExpiredPaymentRequests(requestPorts);
  const flows = new StoreFlowRepository(store);
  const matrices = new CachedFlowMatrixRepository(new StoreFlowMatrixRepository(store), clock, { ttlMs: config.flowMatrixCacheMs });

  const sealer = new AesGcmSecretSealer(config.secretKey);
  const accounts = new CachedProcessorAccountRepository(new StoreProcessorAccountRepository(store), clock, { ttlMs: config.flowMatrixCacheMs });
  const egress = createEgressClient({
    allowPrivate: config.processorAllowPrivateUrls,
    httpsOnly: !config.processorAllowPrivateUrls,
    connectTimeoutMs: 5_000,
    totalTimeoutMs: 30_000,
    maxResponseBytes: 1_000_000,
    proxy: runtime.egressProxy,
  });
  const forwarder = new InternalClient({ signer: runtime.signer, audience: 'forwarder', baseUrl: runtime.serviceUrls.forwarder, tls: runtime.internalTls });
  const forwardOverHttp = httpForwardPayment(forwarder);
  const transport =
    overrides.transport ??
    createProcessorTransport({
      // The embedded profile offers the forwarder's API in process once the forwarder started: looked up per call.
      forwardPayment: (call) => {
        const inProcess = runtime.inProcessApis?.forwarder;
        return inProcess ? inProcessForwardPayment(inProcess, runtime.signer)(call) : forwardOverHttp(call);
      },
      egress,
      assertHostServesMode: hostModeCheck(destinationsOfPlugins(plugins)),
      forwardedHeaders: forwardedHeadersOf(Object.values(plugins).map((plugin) => plugin.manifest)),
    });
  const notifications = new StoreProcessorNotificationRepository(store);
  const directory = processorDirectory({
    plugins,
    builtIn: processors,
    accounts,
    notifications,
    sealer,
    transport,
    clock,
    maxAccountsPerMerchant: config.maxProcessorAccountsPerMerchant,
  });
  const bucketMs = bucketMsOf(config.routing.windowMs);
  const routing: RoutingPorts = {
    stats: new CachedRoutingStatsRepository(new StoreRoutingStatsRepository(store, bucketMs), clock, { ttlMs: config.routing.statsCacheMs, bucketMs }),
    random: overrides.random ?? Math.random,
    settings: {
      windowMs: config.routing.windowMs,
      halfLifeMs: config.routing.halfLifeMs,
      explorationShare: config.routing.explorationShare,
      minAttempts: config.routing.minAttempts,
    },
    retryLimits: config.retryLimits,
    clock,
    onStatsError: (error) => logger.warn({ err: error }, 'routing counts could not be stored; later success-rate decisions see fewer outcomes'),
  };
  const customers = new StoreCustomerRepository(store);
  const paymentMethods = new StorePaymentMethodRepository(store);
  const disputes = new StoreDisputeRepository(store);
  const warnings = new StoreEarlyFraudWarningRepository(store);
  // The simulator's test cards that a dispute or an early fraud warning follows, in the capture's commit.
  const chargeback = simulatedChargeback({ disputes });
  const fraudWarning = simulatedFraudWarning({ warnings });
  const storeMethod = storePaymentMethod({ paymentMethods });
  // The authorization's time starts its validity (AUTHORIZATION_VALIDITY_SECONDS): the expiry scan reads it.
  const onAuthorized = (uow: UnitOfWork, payment: Payment, now: Date): Payment => storeMethod(uow, { ...payment, authorized_at: now.toISOString() }, now);
  const advance = advancePayment({
    payments,
    transactions,
    credentials,
    directory,
    transaction,
    clock,
    onAuthorized,
    onCaptured: (uow, payment, now) => fraudWarning(uow, chargeback(uow, payment, now), now),
    hostedPageReturnUrl: (sessionId) => hostedPageReturnUrl(runtime.publicBaseUrl, sessionId),
    routing,
  });
  const runner = new PaymentRunner({ payments, advance, clock, logger, pollIntervalMs: config.workerPollMs });
  const runPayment = (scope: Scope, paymentId: string): void => void runner.run(scope, paymentId);
  const wake = wakePayment({ payments, transaction, clock });
  const recordDisputes = recordDispute({ payments, disputes, notifications, transaction, clock });
  const recordWarnings = recordEarlyFraudWarning({ payments, warnings, notifications, transaction, clock });
  const refunds = new StoreRefundRepository(store);
  const afterSalePorts = { payments, transactions, refunds, directory, transaction, clock, requestRetentionMs: config.requestRetentionMs };
  const advanceOneRefund = advanceRefund(afterSalePorts);
  const afterSale = new AfterSaleWorker({
    refunds,
    advanceRefund: advanceOneRefund,
    expireAuthorizations: expireAuthorizations({ ...afterSalePorts, authorizationValidityMs: config.authorizationValidityMs }),
    clock,
    logger,
    pollIntervalMs: config.afterSalePollMs,
  });
  const flowPorts = { flows, matrices, directory, transaction, clock, routing };
  const accountPorts = {
    accounts,
    policy: accountPolicy(plugins),
    destinations: processorDestinationCheck(plugins, config.extraForwardDestinations),
    sealer,
    transaction,
    clock,
    maxAccountsPerMerchant: config.maxProcessorAccountsPerMerchant,
  };

  const { http, routes } = serviceHttp({
    service: 'payment-orchestrator',
    publicBaseUrl: runtime.publicBaseUrl,
    verifier: runtime.verifier,
    metrics,
    idempotency: idempotencyOf(runtime),
    logger,
    // Notifications are verified over the bytes as sent.
    rawBodyPaths: ['/processor-notifications'],
    // Dispute evidence carries its files base64 in the JSON: up to the gateway's 1 MB (one 700 KiB file fits).
    largerBodies: { '/disputes/:dispute_id/evidence': '1mb' },
    readiness: async () => {
      await store.ping();
      assertSubscriptionsConsuming(bus);
    },
    routes: (router) => {
      opsRoutes(router, { store });
      const newPayment = createPayment({
        ...requestPorts,
        payments,
        credentials,
        flows,
        matrices,
        directory,
        sessionLifetimeMs: config.sessionLifetimeMs,
        checkoutUrlOf: (sessionId) => hostedPageUrl(runtime.publicBaseUrl, sessionId),
      });
      const subsequentPayment = createSubsequentPayment({
        ...requestPorts,
        payments,
        credentials,
        flows,
        matrices,
        directory,
        retryLimits: config.retryLimits,
      });
      earlierPaymentRoutes(router, {
        createEarlierPayment: createEarlierPayment({
          customers,
          paymentMethods,
          flows,
          matrices,
          directory,
          createPayment: newPayment,
          createSubsequentPayment: subsequentPayment,
        }),
        runPayment,
      });
      const customerPorts = { customers, paymentMethods, transaction, clock };
      customerRoutes(router, {
        createCustomer: createCustomer(customerPorts),
        getCustomer: getCustomer(customerPorts),
        listCustomers: listCustomers(customerPorts),
        listCustomerPaymentMethods: listCustomerPaymentMethods(customerPorts),
        getPaymentMethod: getPaymentMethod(customerPorts),
        revokePaymentMethod: revokePaymentMethod(customerPorts),
      });
      paymentRoutes(router, {
        createPayment: newPayment,
        createSubsequentPayment: subsequentPayment,
        capturePayment: capturePayment({ ...requestPorts, payments, directory }),
        getPayment: getPayment({ payments }),
        listPayments: listPayments({ payments }),
        listTransactions: listTransactions({ payments, transactions }),
        runPayment,
      });
      reportRoutes(router, { reportPayments: reportPayments({ payments, transactions, refunds, disputes }), clock });
      afterSaleRoutes(router, {
        cancelPayment: cancelPayment({ ...afterSalePorts, paymentRequests }),
        createRefund: createRefund(
          { payments, refunds, paymentRequests, directory, transaction, clock, requestRetentionMs: config.requestRetentionMs },
          (refund) => void afterSale.runRefund({ merchantId: refund.merchant_id, mode: refund.mode }, refund.id),
        ),
        getRefund: getRefund({ refunds }),
        listRefunds: listRefunds({ refunds }),
        listPaymentRefunds: listPaymentRefunds({ payments, refunds }),
      });
      flowRoutes(router, {
        createFlow: createFlow(flowPorts),
        getFlow: getFlow(flowPorts),
        listFlows: listFlows(flowPorts),
        putFlowMatrix: putFlowMatrix(flowPorts),
        getFlowMatrix: getFlowMatrix(flowPorts),
        explainFlow: explainFlow(flowPorts),
      });
      routingRoutes(router, { getRoutingStats: getRoutingStats(routing) });
      disputeRoutes(router, {
        getDispute: getDispute({ payments, disputes }),
        listDisputes: listDisputes({ payments, disputes }),
        listPaymentDisputes: listPaymentDisputes({ payments, disputes }),
        openTestDispute: openTestDispute({ payments, record: recordDisputes, clock }),
        acceptDispute: acceptDispute({ payments, disputes, directory, transaction, clock }),
        submitDisputeEvidence: submitDisputeEvidence({ payments, disputes, directory, transaction, clock }),
      });
      earlyFraudWarningRoutes(router, {
        getEarlyFraudWarning: getEarlyFraudWarning({ warnings }),
        listEarlyFraudWarnings: listEarlyFraudWarnings({ warnings }),
      });
      processorRoutes(router, plugins);
      processorAccountRoutes(
        router,
        {
          createProcessorAccount: createProcessorAccount(accountPorts),
          getProcessorAccount: getProcessorAccount(accountPorts),
          listProcessorAccounts: listProcessorAccounts(accountPorts),
          updateProcessorAccount: updateProcessorAccount(accountPorts),
          deleteProcessorAccount: deleteProcessorAccount({ ...accountPorts, flows }),
        },
        accountPorts.policy,
      );
      processorNotificationRoutes(router, {
        receive: receiveProcessorNotification(
          {
            ...accountPorts,
            notifications,
            buckets: runtime.ttl,
            limits: config.notificationLimits,
            rejections: countNotificationRejections(metrics, logger),
            wake: async (scope, paymentId, notified) => {
              if (await wake(scope, paymentId)) await runner.run(scope, paymentId, notified);
            },
            recordDispute: recordDisputes,
            recordEarlyFraudWarning: recordWarnings,
            settleLateCapture: settleLateCapture({ payments, transactions, transaction, clock }),
            voidStray: voidStrayAuthorization({
              payments,
              transactions,
              directory,
              transaction,
              clock,
              settle: (scope, paymentId) => runner.run(scope, paymentId),
            }),
            notifiedAuthentication: notifiedAuthentication({ payments, transaction, clock, run: (scope, paymentId) => runner.run(scope, paymentId) }),
            afterSale: afterSaleNotifications({
              settleVoid: settleVoidByNotification(afterSalePorts),
              wakeRefund: wakeRefund(afterSalePorts, advanceOneRefund),
            }),
          },
          (processor) => plugins[processor]?.notifications?.verify,
        ),
        receivers: (processor) => plugins[processor]?.notifications,
      });
    },
  });

  let relay: OutboxRelay | undefined;
  let consumer: Subscription | undefined;
  let pruning: NodeJS.Timeout | undefined;
  const prune = () => {
    pruneRequests().catch((error: unknown) => logger.warn({ err: error }, 'expired payment requests could not be pruned; next try in an hour'));
  };

  return {
    name: 'payment-orchestrator',
    http,
    routes,
    runner,
    pruneExpiredPaymentRequests: pruneRequests,
    afterSale,
    async start() {
      for (const spec of orchestratorCollections) await store.register(spec);
      await migrateToModes(store);
      relay = startOutboxRelay({ store, bus, logger, metrics, onPublished: countPaymentStatuses(metrics) });
      consumer = await checkoutSessionCompletedConsumer({
        bus,
        store,
        logger,
        completeCheckoutSession: completeCheckoutSession({ payments, flows, matrices, clock }),
        returnFromAuthentication: returnFromAuthentication({ payments, clock }),
        abandonCheckoutSession: abandonCheckoutSession({ payments, clock }),
        runPayment,
      });
      runner.start();
      prune();
      pruning = setInterval(prune, PRUNE_INTERVAL_MS);
      pruning.unref();
      afterSale.start();
    },
    async stop() {
      clearInterval(pruning);
      await consumer?.stop();
      await runner.stop();
      await afterSale.stop();
      await relay?.stop();
      await egress.close();
      await forwarder.close();
    },
  };
}
