/**
 * The provider_a simulator as a process of its own — dev tooling, not production code. The real
 * platform runs on other machines; running its stand-in here, outside the process measured, keeps
 * its HTTP server, its calls to /cde-import and its data off our event loop and out of our heap.
 *
 *   PORT=12111 CUSTOMERS=100 CARDS_PER_CUSTOMER=3 API_KEY=sk_test_demo \
 *     FORWARDING_DESTINATIONS=http://127.0.0.1:8080/cde-import ALLOW_HTTP_LOOPBACK_DESTINATIONS=true \
 *     node --import tsx services/importer/dev/provider-a-simulator.main.ts
 *
 * FORWARDING_DESTINATIONS (comma-separated) are the destinations the platform enabled for the account;
 * more can be enabled while it runs (POST /_simulator/forwarding_destinations, see the process helper).
 *
 * Once listening it prints one line on stdout, `provider_a simulator listening on <base URL> …`
 * (provider-a-simulator.process.ts reads it). On SIGTERM or SIGINT it stops and, last, prints the
 * CPU time it used since listening, so that a benchmark can say what the platform's side cost.
 */
import { startProviderASimulator } from './provider-a-simulator';
import { CPU_PREFIX, LISTENING_PREFIX } from './provider-a-simulator.process';

function nonNegativeInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

async function main(): Promise<void> {
  const env = process.env;
  const simulator = await startProviderASimulator({
    apiKey: env.API_KEY ?? 'sk_test_demo',
    customers: nonNegativeInteger('CUSTOMERS', 100),
    cardsPerCustomer: nonNegativeInteger('CARDS_PER_CUSTOMER', 3),
    accountTag: env.ACCOUNT_TAG || undefined,
    forwardingDestinations: (env.FORWARDING_DESTINATIONS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    allowHttpLoopbackDestinations: env.ALLOW_HTTP_LOOPBACK_DESTINATIONS === 'true',
    port: nonNegativeInteger('PORT', 12111),
  });
  // From here on: the CPU reported at the end leaves out start-up (tsx compiling this file and its imports).
  const cpuAtListening = process.cpuUsage();
  console.log(`${LISTENING_PREFIX}${simulator.baseUrl} with ${simulator.totalPaymentMethods} card payment methods (pid ${process.pid})`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void simulator.stop().finally(() => {
      const cpu = process.cpuUsage(cpuAtListening);
      console.log(
        `${CPU_PREFIX}${JSON.stringify({ user_ms: Math.round(cpu.user / 1000), system_ms: Math.round(cpu.system / 1000), forward_requests: simulator.stats.forwardRequests, outbound_forwards: simulator.stats.outboundForwards, idempotent_replays: simulator.stats.idempotentReplays, list_requests: simulator.stats.listRequests })}`,
      );
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
