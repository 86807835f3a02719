import { waitFor } from '@vaultline/core';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { ADYEN_BODY } from './support/forward-scenario';
import { createMerchant, startSystem, type MerchantApi, type RunningSystem } from './support/merchant-api';
import { documentedRequestOf, idRoutesOfDocument, pathWithId } from './support/merchant-routes';
import { SIMULATOR_CARDS, submitCard } from './support/payment-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Tenant isolation (issue 17, "Hostile input"): merchant B tries every id of merchant A on every route
 * that takes one, and always gets 404 — never A's data, never a 403 that would confirm the id exists.
 * Each row is a resource: how merchant A makes one, and the routes that name it. Adding a resource
 * (payments, credentials, flows, flow matrices once merged) is one row.
 */
interface Ids {
  token: string;
  importJob: string;
  endpoint: string;
  payment: string;
  delivery: string;
  event: string;
  customer: string;
  /** A card stored for COF payments, and an NPR mandate (earlier interface). */
  card: string;
  mandate: string;
}

interface Attempt {
  method: string;
  /** The path as merchant B sends it: A's ids, and B's own where a route needs two (B's endpoint with A's delivery). */
  path: (a: Ids, b: Ids) => string;
  /** The body, or a function of A's and B's ids (a body naming A's customer, card or mandate). */
  json?: unknown;
  /** Headers naming A's ids (X-SERVICE-TOKEN); `destination` is the forward stand-in's URL. */
  headers?: (a: Ids, destination: string) => Record<string, string>;
}

interface ResourceRow {
  resource: string;
  /** The route merchant A reads it on (200 for A: the id is real, so B's 404 means something). */
  ownerRead: (a: Ids) => string;
  attempts: Attempt[];
}

const table: ResourceRow[] = [
  {
    resource: 'token',
    ownerRead: (a) => `/tokens/${a.token}`,
    attempts: [
      { method: 'GET', path: (a) => `/tokens/${a.token}` },
      { method: 'DELETE', path: (a) => `/tokens/${a.token}` },
      // The body asks for the card: the vault is asked for A's token on B's behalf.
      {
        method: 'POST',
        path: () => '/forward',
        json: ADYEN_BODY,
        headers: (a, destination) => ({ 'X-SERVICE-TOKEN': a.token, 'X-DESTINATION-URL': destination }),
      },
    ],
  },
  {
    resource: 'import job',
    ownerRead: (a) => `/tokens/imports/${a.importJob}`,
    attempts: [{ method: 'GET', path: (a) => `/tokens/imports/${a.importJob}` }],
  },
  {
    resource: 'webhook endpoint',
    ownerRead: (a) => `/webhook-endpoints/${a.endpoint}`,
    attempts: [
      { method: 'GET', path: (a) => `/webhook-endpoints/${a.endpoint}` },
      { method: 'PATCH', path: (a) => `/webhook-endpoints/${a.endpoint}`, json: { description: 'taken over' } },
      { method: 'DELETE', path: (a) => `/webhook-endpoints/${a.endpoint}` },
      { method: 'POST', path: (a) => `/webhook-endpoints/${a.endpoint}/rotate-secret`, json: {} },
      { method: 'GET', path: (a) => `/webhook-endpoints/${a.endpoint}/deliveries` },
    ],
  },
  {
    resource: 'webhook delivery',
    ownerRead: (a) => `/webhook-endpoints/${a.endpoint}/deliveries/${a.delivery}`,
    attempts: [
      { method: 'GET', path: (a) => `/webhook-endpoints/${a.endpoint}/deliveries/${a.delivery}` },
      { method: 'POST', path: (a) => `/webhook-endpoints/${a.endpoint}/deliveries/${a.delivery}/replay` },
      // B's own endpoint with A's delivery: the delivery must not be found through another endpoint.
      { method: 'GET', path: (a, b) => `/webhook-endpoints/${b.endpoint}/deliveries/${a.delivery}` },
      { method: 'POST', path: (a, b) => `/webhook-endpoints/${b.endpoint}/deliveries/${a.delivery}/replay` },
    ],
  },
  {
    resource: 'event',
    ownerRead: (a) => `/events/${a.event}`,
    attempts: [{ method: 'GET', path: (a) => `/events/${a.event}` }],
  },
  {
    resource: 'payment',
    ownerRead: (a) => `/payments/${a.payment}`,
    attempts: [
      { method: 'GET', path: (a) => `/payments/${a.payment}` },
      { method: 'GET', path: (a) => `/payments/${a.payment}/transactions` },
      { method: 'POST', path: (a) => `/payments/${a.payment}/capture`, json: { reference: 'taken over' } },
      { method: 'POST', path: (a) => `/payments/recurring/${a.payment}/subsequent`, json: { amount: 100, currency_code: 'EUR', reference: 'taken over' } },
    ],
  },
  {
    resource: 'customer',
    ownerRead: (a) => `/customers/${a.customer}`,
    attempts: [
      { method: 'GET', path: (a) => `/customers/${a.customer}` },
      { method: 'GET', path: (a) => `/customers/${a.customer}/payment-methods` },
      // A first payment for A's customer, on B's key.
      { method: 'POST', path: () => '/payments', json: (a: Ids) => firstPaymentBody(a.customer) },
    ],
  },
  {
    resource: 'stored card',
    ownerRead: (a) => `/payment-methods/${a.card}`,
    attempts: [
      { method: 'GET', path: (a) => `/payment-methods/${a.card}` },
      { method: 'DELETE', path: (a) => `/payment-methods/${a.card}` },
      { method: 'POST', path: () => '/payments', json: (a: Ids) => ({ amount: 100, currency_code: 'EUR', confirm: true, payment_method_id: a.card }) },
      // B's own customer with A's card: a new mandate from another merchant's card.
      { method: 'POST', path: () => '/payments', json: (a: Ids, b: Ids) => ({ ...firstPaymentBody(b.customer), payment_method_id: a.card }) },
    ],
  },
  {
    resource: 'mandate',
    ownerRead: (a) => `/payment-methods/${a.mandate}`,
    attempts: [
      { method: 'GET', path: (a) => `/payment-methods/${a.mandate}` },
      { method: 'DELETE', path: (a) => `/payment-methods/${a.mandate}` },
      // A merchant-initiated charge on A's mandate.
      { method: 'POST', path: () => '/payments', json: (a: Ids) => ({ amount: 100, currency_code: 'EUR', confirm: true, payment_method_id: a.mandate }) },
    ],
  },
];

function firstPaymentBody(customerId: string) {
  return {
    amount: 1000,
    currency_code: 'EUR',
    confirm: true,
    customer_id: customerId,
    store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'isolation' },
  };
}

/** List routes: B's pages never contain an id of A's. */
const lists = ['/tokens', '/tokens/imports', '/webhook-endpoints', '/events', '/payments', '/customers'];

describe('tenant isolation: merchant B tries every id of merchant A', () => {
  let standIns: DestinationStandIns;
  let receiver: WebhookReceiver;
  let running: RunningSystem;
  let merchantA: MerchantApi;
  let merchantB: MerchantApi;
  let idsA: Ids;
  let idsB: Ids;

  /** One of each resource for `merchant`, with a delivered webhook and its event. */
  async function resourcesOf(merchant: MerchantApi): Promise<Ids> {
    const endpoint = (await merchant.call('POST', '/webhook-endpoints', { json: { url: receiver.url, events: ['token.created'] } })).json<{ id: string }>();
    const token = await merchant.createToken({ number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' });
    const importJob = (
      await merchant.call('POST', '/tokens/imports', { json: { provider: 'provider_a', provider_a: { api_key: 'sk_isolation_test_key' } } })
    ).json<{ id: string }>();
    const delivery = await waitFor(
      async () => (await merchant.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).json<{ data: Array<{ id: string }> }>().data[0]?.id ?? null,
      10_000,
    );
    const [event] = await merchant.events('token.created');
    const payment = (
      await merchant.call('POST', '/payments/recurring', {
        json: {
          amount: 1000,
          currency_code: 'EUR',
          reference: 'isolation',
          source: { type: 'vaultline' },
          recurring_frequency: 30,
          recurring_expiry: '20301231',
        },
      })
    ).json<{ id: string }>();
    const customer = (await merchant.call('POST', '/customers', { json: { name: 'Isolation' } })).json<{ id: string }>();
    const stored = async (body: Record<string, unknown>): Promise<string> => {
      const created = (await merchant.call('POST', '/payments', { json: { amount: 1000, currency_code: 'EUR', confirm: true, ...body } })).json<{
        id: string;
        action_requirement: { session_id: string };
      }>();
      await submitCard(running.system.baseUrl, created.action_requirement.session_id, SIMULATOR_CARDS.approved);
      return waitFor(
        async () => (await merchant.call('GET', `/payments/${created.id}`)).json<{ payment_method: { id?: string } | null }>().payment_method?.id ?? null,
        10_000,
      );
    };
    const card = await stored({ customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } });
    const mandate = await stored(firstPaymentBody(customer.id));
    return {
      token: token.id,
      importJob: importJob.id,
      endpoint: endpoint.id,
      delivery,
      event: event!.id,
      payment: payment.id,
      customer: customer.id,
      card,
      mandate,
    };
  }

  beforeAll(async () => {
    standIns = await startDestinationStandIns();
    receiver = await startWebhookReceiver();
    // Merchant B tries some 250 (route, id) pairs in a burst: the edge's per-key bucket (burst 200) is not the subject here.
    running = await startSystem(
      {
        ...standIns.forwarderEnv,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '100',
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
      'vaultline-isolation-',
    );
    merchantA = await createMerchant(running.system, 'Merchant A', true);
    merchantB = await createMerchant(running.system, 'Merchant B', true);
    idsA = await resourcesOf(merchantA);
    idsB = await resourcesOf(merchantB);
  }, 30_000);
  afterAll(async () => {
    await running?.stop();
    await receiver?.stop();
    await standIns?.stop();
  });

  it("when merchant B lists its tokens, imports, endpoints and events, then none of merchant A's ids is in them", async () => {
    const seen = [];
    for (const list of lists) seen.push((await merchantB.call('GET', `${list}?limit=100`)).text);

    for (const id of Object.values(idsA)) expect(seen.filter((page) => page.includes(id))).toEqual([]);
  });

  it("when merchant B names any of merchant A's ids on any route, then the answer is 404 problem+json, and A still has every resource", async () => {
    const pairs = table.flatMap((row) => row.attempts.map((attempt) => ({ row, attempt })));
    for (const row of table)
      expect({ resource: row.resource, status: (await merchantA.call('GET', row.ownerRead(idsA))).status }).toEqual({ resource: row.resource, status: 200 });

    const forwardsBefore = standIns.adyen.received.length;
    const answers = [];
    for (const { row, attempt } of pairs) {
      const json = typeof attempt.json === 'function' ? (attempt.json as (a: Ids, b: Ids) => unknown)(idsA, idsB) : attempt.json;
      const answer = await merchantB.call(attempt.method, attempt.path(idsA, idsB), {
        ...(json !== undefined ? { json } : {}),
        ...(attempt.headers ? { headers: attempt.headers(idsA, standIns.adyen.url) } : {}),
      });
      answers.push({
        resource: row.resource,
        route: `${attempt.method} ${attempt.path(idsA, idsB)}`,
        status: answer.status,
        problem: answer.headers.get('content-type')?.includes('application/problem+json') ?? false,
      });
    }

    // And every id of A's in every id slot of every merchant route in the document.
    const routes = idRoutesOfDocument();
    for (const route of routes) {
      for (const [kind, id] of Object.entries(idsA)) {
        const path = pathWithId(route, id);
        const answer = await merchantB.call(route.method, path, documentedRequestOf(route));
        answers.push({
          resource: kind,
          route: `${route.method} ${path}`,
          status: answer.status,
          problem: answer.headers.get('content-type')?.includes('application/problem+json') ?? false,
        });
      }
    }

    console.log(
      `tenant isolation: ${answers.length} (route, id) pairs tried by merchant B (${pairs.length} from the table of ${table.length} resources, ${answers.length - pairs.length} from ${routes.length} routes of the document × ${Object.keys(idsA).length} ids), ${answers.filter((a) => a.status === 404).length} answered 404`,
    );
    expect(answers.filter((a) => a.status !== 404 || !a.problem)).toEqual([]);
    expect(standIns.adyen.received.length).toBe(forwardsBefore);
    // Nothing B did changed A's resources (B's DELETE and PATCH were refused, not applied elsewhere).
    for (const row of table)
      expect({ resource: row.resource, status: (await merchantA.call('GET', row.ownerRead(idsA))).status }).toEqual({ resource: row.resource, status: 200 });
    // (B's PATCH sent the documented example, which disables the endpoint, or the fallback description.)
    const endpointOfA = (await merchantA.call('GET', `/webhook-endpoints/${idsA.endpoint}`)).json<{ description: string | null; enabled: boolean }>();
    expect({ description: endpointOfA.description === 'taken over', enabled: endpointOfA.enabled }).toEqual({ description: false, enabled: true });
  });
});
