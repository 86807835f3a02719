import { randomUUID } from 'node:crypto';
import type { Mode } from '@vaultline/core';
import { waitFor } from '@vaultline/core';
import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { ADYEN_BODY } from './support/forward-scenario';
import { importWhenStopped, startImport } from './support/import-scenario';
import { createMerchantOfBothModes, startSystem, type MerchantApi, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { documentedRequestOf, idRoutesOfDocument, pathWithId, probe, type ProbeAnswer } from './support/merchant-routes';
import { PAYMENT_ENV, PaymentsApi, dayFromNow, sessionOf, submitCard, timeFromNow, type PaymentView } from './support/payment-scenario';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Test and live are two worlds (issue 23): one merchant with a test key and a live key. Everything the
 * merchant makes in one mode is tried with the key of the other mode, on every route that names it, and
 * the answer is always 404, as for another merchant's resource: nothing changed, nothing sent to a
 * processor. Both modes pay on an Adyen stand-in of their own (the simulator serves test mode only), so
 * a capture or a subsequent payment that slipped through would show as a request at the stand-in.
 */
const ADYEN = {
  api_key: 'AQE_e2e_mode_isolation_0042',
  merchant_account: 'ShopECOM',
  hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const MODES: Mode[] = ['test', 'live'];
const other = (mode: Mode): Mode => (mode === 'test' ? 'live' : 'test');

interface Ids {
  token: string;
  importJob: string;
  endpoint: string;
  delivery: string;
  event: string;
  account: string;
  /** A flow's name: flows are named, not numbered. */
  flow: string;
  oneOff: string;
  recurring: string;
  unscheduled: string;
  subsequent: string;
  customer: string;
  /** Earlier interface: a card stored for COF payments, and an NPR mandate with its first payment. */
  card: string;
  mandate: string;
  mandatePayment: string;
}

interface Attempt {
  method: string;
  /** The path as the other mode's key sends it: `theirs` are the probed mode's ids, `own` the prober's. */
  path: (theirs: Ids, own: Ids) => string;
  json?: unknown;
  /** A body naming the probed mode's ids (`theirs`) or the prober's own. */
  jsonOf?: (theirs: Ids, own: Ids) => unknown;
  headers?: (theirs: Ids, destination: string) => Record<string, string>;
  /** Only with a test key: the test clock two months ahead (a live key's X-Test-Now is refused first, 422). */
  testClock?: boolean;
  /**
   * The id sits in the body: the answer must be the one a never-made id gets (for a flow naming an
   * account or a matrix naming a flow, the product's answer to an unknown name), not necessarily 404.
   */
  asUnknown?: (theirs: Ids, own: Ids) => { path: string; json?: unknown };
}

interface ResourceRow {
  resource: string;
  /** The owner's read: 200 for the owner (the id is real, so the other key's 404 means something); compared before and after. */
  ownerRead: (ids: Ids) => string;
  attempts: Attempt[];
}

const firstPaymentBody = (customerId: string) => ({
  amount: 1000,
  currency_code: 'EUR',
  confirm: true,
  customer_id: customerId,
  store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'modes' },
});
const subsequentBody = { amount: 500, currency_code: 'EUR', reference: 'other mode' };
const chargeOn = (paymentMethodId: string) => ({ amount: 100, currency_code: 'EUR', confirm: true, payment_method_id: paymentMethodId });

function paymentAttempts(id: (ids: Ids) => string): Attempt[] {
  return [
    { method: 'GET', path: (t) => `/payments/${id(t)}` },
    { method: 'GET', path: (t) => `/payments/${id(t)}/transactions` },
    { method: 'POST', path: (t) => `/payments/${id(t)}/capture`, json: { reference: 'other mode' } },
    { method: 'POST', path: (t) => `/payments/recurring/${id(t)}/subsequent`, json: subsequentBody, testClock: true },
    { method: 'POST', path: (t) => `/payments/unscheduled/${id(t)}/subsequent`, json: subsequentBody },
  ];
}

const table: ResourceRow[] = [
  {
    resource: 'token',
    ownerRead: (i) => `/tokens/${i.token}`,
    attempts: [
      { method: 'GET', path: (t) => `/tokens/${t.token}` },
      { method: 'DELETE', path: (t) => `/tokens/${t.token}` },
      // Forward with the other mode's token: the vault is asked for it in the prober's mode.
      {
        method: 'POST',
        path: () => '/forward',
        json: ADYEN_BODY,
        headers: (t, destination) => ({ 'X-SERVICE-TOKEN': t.token, 'X-DESTINATION-URL': destination }),
      },
    ],
  },
  { resource: 'import job', ownerRead: (i) => `/tokens/imports/${i.importJob}`, attempts: [{ method: 'GET', path: (t) => `/tokens/imports/${t.importJob}` }] },
  {
    resource: 'webhook endpoint',
    ownerRead: (i) => `/webhook-endpoints/${i.endpoint}`,
    attempts: [
      { method: 'GET', path: (t) => `/webhook-endpoints/${t.endpoint}` },
      { method: 'PATCH', path: (t) => `/webhook-endpoints/${t.endpoint}`, json: { description: 'taken over' } },
      { method: 'DELETE', path: (t) => `/webhook-endpoints/${t.endpoint}` },
      { method: 'POST', path: (t) => `/webhook-endpoints/${t.endpoint}/rotate-secret`, json: {} },
      { method: 'GET', path: (t) => `/webhook-endpoints/${t.endpoint}/deliveries` },
    ],
  },
  {
    resource: 'webhook delivery',
    ownerRead: (i) => `/webhook-endpoints/${i.endpoint}/deliveries/${i.delivery}`,
    attempts: [
      { method: 'GET', path: (t) => `/webhook-endpoints/${t.endpoint}/deliveries/${t.delivery}` },
      { method: 'POST', path: (t) => `/webhook-endpoints/${t.endpoint}/deliveries/${t.delivery}/replay` },
      // The prober's own endpoint with the other mode's delivery.
      { method: 'GET', path: (t, own) => `/webhook-endpoints/${own.endpoint}/deliveries/${t.delivery}` },
      { method: 'POST', path: (t, own) => `/webhook-endpoints/${own.endpoint}/deliveries/${t.delivery}/replay` },
    ],
  },
  { resource: 'event', ownerRead: (i) => `/events/${i.event}`, attempts: [{ method: 'GET', path: (t) => `/events/${t.event}` }] },
  {
    resource: 'processor account',
    ownerRead: (i) => `/processor-accounts/${i.account}`,
    attempts: [
      { method: 'GET', path: (t) => `/processor-accounts/${t.account}` },
      {
        method: 'PATCH',
        path: (t) => `/processor-accounts/${t.account}`,
        json: { name: 'taken over', credentials: { ...ADYEN, api_key: 'AQE_taken_over_9999' } },
      },
      { method: 'DELETE', path: (t) => `/processor-accounts/${t.account}` },
      // A flow of the prober's mode naming the other mode's account: refused as for an account that does not exist.
      {
        method: 'POST',
        path: () => '/flows',
        jsonOf: (t) => accountFlow(`probe-${randomUUID().slice(0, 8)}`, t.account),
        asUnknown: () => ({ path: '/flows', json: accountFlow(`probe-${randomUUID().slice(0, 8)}`, randomUUID()) }),
      },
    ],
  },
  {
    resource: 'flow',
    ownerRead: (i) => `/flows/${i.flow}`,
    attempts: [
      { method: 'GET', path: (t) => `/flows/${t.flow}` },
      // The prober's matrix naming the other mode's flow: refused as for a flow that does not exist.
      {
        method: 'PUT',
        path: () => '/flow-matrix',
        jsonOf: (t) => ({ default_flow: t.flow, rules: [] }),
        asUnknown: () => ({ path: '/flow-matrix', json: { default_flow: 'no-such-flow', rules: [] } }),
      },
      {
        method: 'PUT',
        path: () => '/flow-matrix',
        jsonOf: (t, own) => ({ default_flow: own.flow, rules: [{ name: 'theirs', when: { currency_code: ['EUR'] }, flow: t.flow }] }),
        asUnknown: (_t, own) => ({
          path: '/flow-matrix',
          json: { default_flow: own.flow, rules: [{ name: 'theirs', when: { currency_code: ['EUR'] }, flow: 'no-such-flow' }] },
        }),
      },
    ],
  },
  { resource: 'one-off payment (authorized, manual capture)', ownerRead: (i) => `/payments/${i.oneOff}`, attempts: paymentAttempts((i) => i.oneOff) },
  { resource: 'initial recurring payment (stored credentials)', ownerRead: (i) => `/payments/${i.recurring}`, attempts: paymentAttempts((i) => i.recurring) },
  {
    resource: 'initial unscheduled payment (stored credentials)',
    ownerRead: (i) => `/payments/${i.unscheduled}`,
    attempts: paymentAttempts((i) => i.unscheduled),
  },
  { resource: 'subsequent payment', ownerRead: (i) => `/payments/${i.subsequent}`, attempts: paymentAttempts((i) => i.subsequent) },
  {
    resource: 'earlier-interface payment (mandate first)',
    ownerRead: (i) => `/payments/${i.mandatePayment}`,
    attempts: paymentAttempts((i) => i.mandatePayment),
  },
  {
    resource: 'customer',
    ownerRead: (i) => `/customers/${i.customer}`,
    attempts: [
      { method: 'GET', path: (t) => `/customers/${t.customer}` },
      { method: 'GET', path: (t) => `/customers/${t.customer}/payment-methods` },
      { method: 'POST', path: () => '/payments', jsonOf: (t) => firstPaymentBody(t.customer) },
    ],
  },
  {
    resource: 'stored card',
    ownerRead: (i) => `/payment-methods/${i.card}`,
    attempts: [
      { method: 'GET', path: (t) => `/payment-methods/${t.card}` },
      { method: 'DELETE', path: (t) => `/payment-methods/${t.card}` },
      { method: 'POST', path: () => '/payments', jsonOf: (t) => chargeOn(t.card) },
      { method: 'POST', path: () => '/payments', jsonOf: (t, own) => ({ ...firstPaymentBody(own.customer), payment_method_id: t.card }) },
    ],
  },
  {
    resource: 'mandate',
    ownerRead: (i) => `/payment-methods/${i.mandate}`,
    attempts: [
      { method: 'GET', path: (t) => `/payment-methods/${t.mandate}` },
      { method: 'DELETE', path: (t) => `/payment-methods/${t.mandate}` },
      { method: 'POST', path: () => '/payments', jsonOf: (t) => chargeOn(t.mandate) },
    ],
  },
];

function accountFlow(name: string, account: string) {
  return {
    name,
    capture_mode: 'manual',
    steps: [
      { kind: 'authorization', processor: account },
      { kind: 'capture', processor: account },
    ],
  };
}

/** The list routes of a mode: none of the other mode's ids may be on their pages. */
const lists = (own: Ids) => [
  '/tokens',
  '/tokens/imports',
  '/webhook-endpoints',
  `/webhook-endpoints/${own.endpoint}/deliveries`,
  '/events',
  '/payments',
  '/customers',
  `/customers/${own.customer}/payment-methods`,
  '/flows',
  '/flow-matrix',
  '/processor-accounts',
];

describe("mode isolation: a merchant's key of one mode tries every id of the other mode", () => {
  let running: RunningSystem;
  let merchant: MerchantOfBothModes;
  let forwardStandIns: DestinationStandIns;
  const adyen = {} as Record<Mode, AdyenStandIn>;
  const receivers = {} as Record<Mode, WebhookReceiver>;
  const ids = {} as Record<Mode, Ids>;
  /** Every 2xx JSON answer the owner got while making and reading its resources (the livemode check reads them). */
  const ownerAnswers: Array<{ mode: Mode; route: string; body: unknown }> = [];

  const keyOf = (mode: Mode): MerchantApi => merchant[mode];

  async function ownerCall<T>(mode: Mode, method: string, path: string, json?: unknown): Promise<T> {
    const answer = await keyOf(mode).call(method, path, json === undefined ? {} : { json });
    if (answer.status >= 300) throw new Error(`${mode}: ${method} ${path} answered ${answer.status}: ${answer.text}`);
    const body: unknown = answer.text ? JSON.parse(answer.text) : undefined;
    ownerAnswers.push({ mode, route: `${method} ${path}`, body });
    return body as T;
  }

  /** Every resource of one mode, made with that mode's key; its payments on that mode's Adyen stand-in, manual capture. */
  async function resourcesIn(mode: Mode): Promise<Ids> {
    const api = new PaymentsApi(keyOf(mode));
    const endpoint = await ownerCall<{ id: string }>(mode, 'POST', '/webhook-endpoints', { url: receivers[mode].url });
    const token = await ownerCall<{ id: string }>(mode, 'POST', '/tokens', { card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' } });
    const importJob = await startImport(keyOf(mode), `sk_${mode}_mode_isolation_platform`);
    const account = await ownerCall<{ id: string }>(mode, 'POST', '/processor-accounts', {
      processor: 'adyen',
      name: `${mode} adyen`,
      credentials: ADYEN,
      settings: { base_url: adyen[mode].baseUrl },
    });
    const flow = `${mode}-adyen-manual`;
    await ownerCall(mode, 'POST', '/flows', accountFlow(flow, account.id));
    await ownerCall(mode, 'PUT', '/flow-matrix', { default_flow: flow, rules: [] });

    const paid = async (path: string, body: Record<string, unknown>): Promise<PaymentView> => {
      const created = await ownerCall<PaymentView>(mode, 'POST', path, {
        amount: 1000,
        currency_code: 'EUR',
        reference: `${mode}-${path.split('/').at(-1)}`,
        source: { type: 'vaultline' },
        ...body,
      });
      await submitCard(running.system.baseUrl, sessionOf(created), ADYEN_TEST_CARDS.approved);
      return api.until(created.id, 'authorized');
    };
    const oneOff = await paid('/payments/one-off', {});
    const recurring = await paid('/payments/recurring', { recurring_frequency: 30, recurring_expiry: dayFromNow(365) });
    const unscheduled = await paid('/payments/unscheduled', {});
    const subsequent = await ownerCall<PaymentView>(mode, 'POST', `/payments/unscheduled/${unscheduled.id}/subsequent`, {
      amount: 500,
      currency_code: 'EUR',
      reference: `${mode}-subsequent`,
    });
    await api.until(subsequent.id, 'authorized');

    const customer = await ownerCall<{ id: string }>(mode, 'POST', '/customers', { name: `${mode} customer` });
    const stored = async (body: Record<string, unknown>): Promise<{ payment: string; method: string }> => {
      const created = await ownerCall<{ id: string; action_requirement: { session_id: string } }>(mode, 'POST', '/payments', {
        amount: 1000,
        currency_code: 'EUR',
        confirm: true,
        ...body,
      });
      await submitCard(running.system.baseUrl, created.action_requirement.session_id, ADYEN_TEST_CARDS.approved);
      const method = await waitFor(
        async () => (await keyOf(mode).call('GET', `/payments/${created.id}`)).json<{ payment_method: { id?: string } | null }>().payment_method?.id ?? null,
        15_000,
      );
      return { payment: created.id, method };
    };
    const card = await stored({ customer_id: customer.id, store_payment_method_for: { use_case: 'cof_payments' } });
    const mandate = await stored(firstPaymentBody(customer.id));
    await importWhenStopped(keyOf(mode), importJob.id);

    const delivery = await waitFor(
      async () => (await keyOf(mode).call('GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).json<{ data: Array<{ id: string }> }>().data[0]?.id ?? null,
      15_000,
    );
    const [event] = await keyOf(mode).events('token.created');
    return {
      token: token.id,
      importJob: importJob.id,
      endpoint: endpoint.id,
      delivery,
      event: event!.id,
      account: account.id,
      flow,
      oneOff: oneOff.id,
      recurring: recurring.id,
      unscheduled: unscheduled.id,
      subsequent: subsequent.id,
      customer: customer.id,
      card: card.method,
      mandate: mandate.method,
      mandatePayment: mandate.payment,
    };
  }

  /** What the owner reads of each resource, its deliveries' state settled: compared before and after the other key's attempts. */
  async function ownerView(mode: Mode): Promise<Record<string, string>> {
    const view: Record<string, string> = {};
    for (const row of table) {
      const answer = await keyOf(mode).call('GET', row.ownerRead(ids[mode]));
      view[row.resource] = `${answer.status} ${answer.text}`;
    }
    view['flow matrix'] = (await keyOf(mode).call('GET', '/flow-matrix')).text;
    view['processor account list'] = (await keyOf(mode).call('GET', '/processor-accounts')).text;
    return view;
  }

  /** Requests received by every processor (authorisations, captures: one notification each, cancels) and forward destination so far. */
  const sentToProcessors = () => ({
    ...Object.fromEntries(
      MODES.map((mode) => [mode, { payments: adyen[mode].payments.length, captures: adyen[mode].notifications.length, cancels: adyen[mode].cancels.length }]),
    ),
    forward: forwardStandIns.adyen.received.length,
  });

  beforeAll(async () => {
    for (const mode of MODES) {
      adyen[mode] = await startAdyenStandIn({ apiKey: ADYEN.api_key, merchantAccount: ADYEN.merchant_account, hmacKey: ADYEN.hmac_key });
      receivers[mode] = await startWebhookReceiver();
    }
    forwardStandIns = await startDestinationStandIns();
    running = await startSystem(
      {
        ...PAYMENT_ENV,
        ...forwardStandIns.forwarderEnv,
        FORWARD_EXTRA_DESTINATIONS: [
          forwardStandIns.forwarderEnv.FORWARD_EXTRA_DESTINATIONS,
          `${adyen.test.baseUrl}/v69/payments`,
          `${adyen.live.baseUrl}/v69/payments`,
        ].join(','),
        PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
        // Some 400 (route, id) pairs in a burst: the edge's per-key bucket is not the subject here.
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
      'vaultline-mode-isolation-',
    );
    merchant = await createMerchantOfBothModes(running.system, 'Two worlds');
    for (const mode of MODES) ids[mode] = await resourcesIn(mode);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    await forwardStandIns?.stop();
    for (const mode of MODES) await Promise.all([adyen[mode]?.stop(), receivers[mode]?.stop()]);
  });

  it.each(MODES)(
    "when the %s key lists tokens, imports, endpoints, deliveries, events, payments, customers, payment methods, flows, the flow matrix and processor accounts, then none of the other mode's ids or flow names is on them",
    async (mode) => {
      const theirs = ids[other(mode)];
      const seen: Array<{ list: string; ids: string[] }> = [];
      for (const list of lists(ids[mode])) {
        const page = await keyOf(mode).call(
          'GET',
          `${list}${list === '/flow-matrix' || list === '/flows' || list === '/processor-accounts' ? '' : '?limit=100'}`,
        );
        expect({ list, status: page.status }).toEqual({ list, status: 200 });
        seen.push({ list, ids: Object.values(theirs).filter((id) => page.text.includes(id)) });
      }
      expect(seen.filter((list) => list.ids.length > 0)).toEqual([]);
    },
  );

  it('when each key names every id of the other mode on every route that takes one, then the answer is 404 problem+json (or, for an id in a body, what a never-made id gets), nothing changed and nothing reached a processor', async () => {
    const before = { test: await ownerView('test'), live: await ownerView('live') };
    // The ids are real: each owner reads every one of them (so the other key's 404 means something).
    for (const mode of MODES)
      expect(table.map((row) => [row.resource, before[mode][row.resource]!.slice(0, 3)])).toEqual(table.map((row) => [row.resource, '200']));
    const sentBefore = sentToProcessors();
    const answers: Array<ProbeAnswer & { expected: { status: number; code: string | null } | null }> = [];
    const routes = idRoutesOfDocument();
    let fromTable = 0;

    for (const mode of MODES) {
      const prober = keyOf(mode);
      const [theirs, own] = [ids[other(mode)], ids[mode]];
      for (const row of table) {
        for (const attempt of row.attempts) {
          if (attempt.testClock && mode !== 'test') continue;
          const json = attempt.jsonOf ? attempt.jsonOf(theirs, own) : attempt.json;
          const headers = { ...attempt.headers?.(theirs, forwardStandIns.adyen.url), ...(attempt.testClock ? { 'X-Test-Now': timeFromNow(61) } : {}) };
          const answer = await probe(prober, `${other(mode)} ${row.resource}`, attempt.method, attempt.path(theirs, own), {
            ...(json === undefined ? {} : { json }),
            headers,
          });
          let expected: { status: number; code: string | null } | null = null;
          if (attempt.asUnknown) {
            const unknown = attempt.asUnknown(theirs, own);
            const control = await probe(prober, 'never made', attempt.method, unknown.path, unknown.json === undefined ? {} : { json: unknown.json });
            expected = { status: control.status, code: control.code };
          }
          answers.push({ ...answer, route: `${mode} key: ${answer.route}`, expected });
          fromTable += 1;
        }
      }
      // Every id slot of every merchant route of the document, with every id of the other mode.
      for (const route of routes) {
        for (const [kind, id] of Object.entries(theirs)) {
          // A flow's name is no id: it goes only where a name does (a malformed id is refused first, 422).
          if (kind === 'flow' && !route.template.includes('{flow_name}')) continue;
          const answer = await probe(prober, `${other(mode)} ${kind}`, route.method, pathWithId(route, id), documentedRequestOf(route));
          answers.push({ ...answer, route: `${mode} key: ${answer.route}`, expected: null });
        }
      }
    }

    const byDocument = answers.length - fromTable;
    console.log(
      `mode isolation: ${answers.length} (route, id) pairs probed across modes, both directions (${fromTable} from the table of ${table.length} resources, ` +
        `${byDocument} from ${routes.length} routes of the document × ${Object.keys(ids.test).length} ids × 2 modes), ${answers.filter((a) => a.status === 404).length} answered 404`,
    );
    console.log(
      `answers to an id of the other mode in a body, beside a never-made one's: ${answers
        .filter((a) => a.expected)
        .map((a) => `${a.route} → ${a.status} ${a.code}`)
        .join('; ')}`,
    );
    const wrong = answers.filter((a) =>
      a.expected ? a.status !== a.expected.status || a.code !== a.expected.code || a.status < 400 : a.status !== 404 || !a.problem,
    );
    expect(wrong).toEqual([]);
    expect(sentToProcessors()).toEqual(sentBefore);
    expect({ test: await ownerView('test'), live: await ownerView('live') }).toEqual(before);
  }, 120_000);

  it('when the owners made and read their resources, then every object answered carries livemode: false with the test key, true with the live key', async () => {
    for (const mode of MODES) for (const list of lists(ids[mode])) await ownerCall(mode, 'GET', list);
    for (const mode of MODES) for (const row of table) await ownerCall(mode, 'GET', row.ownerRead(ids[mode]));
    for (const mode of MODES) await ownerCall(mode, 'GET', `/payments/${ids[mode].oneOff}/transactions`);

    const objects = ownerAnswers.flatMap(({ mode, route, body }) => {
      const page = body as { object?: string; data?: unknown[] } | undefined;
      const items = page?.object === 'list' && Array.isArray(page.data) ? page.data : [body];
      return items.filter((item) => item !== undefined).map((item) => ({ mode, route, livemode: (item as { livemode?: unknown }).livemode }));
    });
    expect(objects.length).toBeGreaterThan(100);
    expect(objects.filter((o) => o.livemode !== (o.mode === 'live'))).toEqual([]);
  });

  it('when events of both modes were delivered, then the test endpoint received only test-mode webhooks and the live one only live-mode ones, each body saying so in livemode', async () => {
    for (const mode of MODES) {
      const bodies = receivers[mode].received.map((webhook) => JSON.parse(webhook.body) as { type: string; livemode?: unknown; data: Record<string, unknown> });
      expect(bodies.map((b) => b.type)).toEqual(expect.arrayContaining(['token.created']));
      expect(bodies.some((b) => b.type.startsWith('payment.'))).toBe(true);
      expect(bodies.filter((b) => b.livemode !== (mode === 'live'))).toEqual([]);
      // The other mode's ids appear only in the record of the prober's own refused forward, which names the token it was sent.
      const theirs = Object.values(ids[other(mode)]);
      const ownRefusals = bodies.filter((b) => b.type === 'forward.completed' && (b.data as { outcome?: string }).outcome === 'rejected');
      expect(ownRefusals.map((b) => (b.data as { token_id?: string }).token_id)).toEqual([ids[other(mode)].token]);
      expect(bodies.filter((b) => !ownRefusals.includes(b) && theirs.some((id) => JSON.stringify(b.data).includes(id)))).toEqual([]);
    }
  });

  it.each(MODES)("when the %s key puts its flow matrix, then only its own mode's matrix changes: the other mode's reads as before", async (mode) => {
    const theirs = (await keyOf(other(mode)).call('GET', '/flow-matrix')).text;
    const put = await keyOf(mode).call('PUT', '/flow-matrix', {
      json: { default_flow: ids[mode].flow, rules: [{ name: 'big', when: { amount_gte: 100_000 }, flow: ids[mode].flow }] },
    });

    expect(put.status).toBe(200);
    expect(put.json()).toMatchObject({ livemode: mode === 'live', default_flow: ids[mode].flow, rules: [{ name: 'big' }] });
    expect((await keyOf(other(mode)).call('GET', '/flow-matrix')).text).toBe(theirs);
  });
});
