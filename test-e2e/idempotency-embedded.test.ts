import { waitFor } from '@vaultline/core';
import { startRedisServer } from '@vaultline/testing';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { FORWARD_CARDS, forwardToAdyen, freshIdempotencyKey } from './support/forward-scenario';
import { earlierPaymentEffects } from './support/earlier-payments-idempotency';
import { describeRace, race, type IdempotentEffect } from './support/idempotency';
import { startSystem, type MerchantApi, type RunningSystem, type TokenView } from './support/merchant-api';
import { PAYMENT_ENV, PaymentsApi, SIMULATOR_CARDS, dayFromNow, sessionOf, submitCard, timeFromNow, type PaymentView } from './support/payment-scenario';

interface Context {
  standIns: DestinationStandIns;
  /** A token with its security code, for the forwards. */
  token: TokenView;
  /** A captured initial recurring payment: its stored credentials pay the subsequent ones. */
  initialRecurring: PaymentView;
  /** A manual-capture payment at authorized, waiting for its capture. */
  authorized: PaymentView;
}

/** References starting so are sent to simulator_manual_capture by the merchant's flow matrix. */
const MANUAL_PREFIX = 'manual-';

/** Every payment of the merchant with this reference (all pages of GET /payments). */
async function paymentsWithReference(merchant: MerchantApi, reference: string): Promise<PaymentView[]> {
  const found: PaymentView[] = [];
  let after: string | null = null;
  do {
    const page: { data: PaymentView[]; has_more: boolean; next_cursor?: string | null } = await new PaymentsApi(merchant).ok('GET', '/payments', {
      query: `limit=100${after ? `&starting_after=${after}` : ''}`,
    });
    found.push(...page.data.filter((payment) => payment.reference === reference));
    after = page.has_more ? (page.next_cursor ?? page.data.at(-1)?.id ?? null) : null;
  } while (after);
  return found;
}

/** A payment paid with the approved card through POST /sessions/{id}/card, once it reached `status`. */
async function paidPayment(running: RunningSystem, path: string, body: Record<string, unknown>, status: PaymentView['status']): Promise<PaymentView> {
  const api = new PaymentsApi(running.merchant);
  const created = await api.ok('POST', path, { json: { amount: 1999, currency_code: 'EUR', source: { type: 'vaultline' }, ...body } });
  await submitCard(running.system.baseUrl, sessionOf(created), SIMULATOR_CARDS.approved);
  return api.until(created.id, status, 60_000);
}

const RACERS = 50;

/**
 * Every effect a retried POST must not repeat: a token, a request at the destination, a payment, a
 * subsequent payment on stored credentials, a capture at the processor (its capture transaction).
 */
const effects: Array<IdempotentEffect<Context>> = [
  {
    name: 'POST /tokens (one token)',
    send: (_context, merchant, key) =>
      merchant.call('POST', '/tokens', { json: { card: FORWARD_CARDS.amex, business_key: `bk-${key}` }, headers: { 'Idempotency-Key': key } }),
    count: async (_context, merchant, key) => (await merchant.tokensByBusinessKey(`bk-${key}`)).length,
  },
  {
    name: 'POST /forward (one request at the destination)',
    send: (context, merchant, key) => forwardToAdyen(merchant, context.token.id, context.standIns.adyen.url, key),
    count: async (context) => context.standIns.adyen.received.length,
  },
  ...earlierPaymentEffects,
  {
    name: 'POST /payments/one-off (one payment)',
    send: (_context, merchant, key) =>
      merchant.call('POST', '/payments/one-off', {
        json: { amount: 1999, currency_code: 'EUR', reference: `one-off-${key}`, source: { type: 'vaultline' } },
        headers: { 'Idempotency-Key': key },
      }),
    count: async (_context, merchant, key) => (await paymentsWithReference(merchant, `one-off-${key}`)).length,
  },
  {
    name: 'POST /payments/recurring/{id}/subsequent (one subsequent payment)',
    // A month after the initial one (X-Test-Now), so the recurring frequency allows it; the same time in every request.
    send: (context, merchant, key) =>
      merchant.call('POST', `/payments/recurring/${context.initialRecurring.id}/subsequent`, {
        json: { amount: 1999, currency_code: 'EUR', reference: `subsequent-${key}` },
        headers: { 'Idempotency-Key': key, 'X-Test-Now': subsequentTime },
      }),
    count: async (_context, merchant, key) => (await paymentsWithReference(merchant, `subsequent-${key}`)).length,
  },
  {
    name: 'POST /payments/{id}/capture (one capture at the processor)',
    send: (context, merchant, key) =>
      merchant.call('POST', `/payments/${context.authorized.id}/capture`, {
        json: { reference: `capture-${key}`, amount: 1500, currency_code: 'EUR' },
        headers: { 'Idempotency-Key': key },
      }),
    count: async (context, merchant) => {
      const api = new PaymentsApi(merchant);
      // The capture settles in the background: count once the payment left capturing.
      const payment = await waitFor(
        async () => {
          const current = await api.get(context.authorized.id);
          return current.status === 'capturing' ? null : current;
        },
        60_000,
        50,
      );
      expect(payment.amount.captured ?? 0).toBeLessThanOrEqual(payment.amount.authorized ?? 0);
      return (await api.transactions(context.authorized.id)).filter((transaction) => transaction.kind === 'capture' && transaction.status === 'succeeded')
        .length;
    },
  },
];

const subsequentTime = timeFromNow(31);

describe.each([
  ['the in-process TTL store (TTL_URL unset)', false],
  ['Redis (TTL_URL=redis://…)', true],
])('Idempotency-Key in the embedded profile with %s', (_store, withRedis) => {
  let context: Context;
  let running: RunningSystem;
  let stopRedis: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (withRedis) {
      const redis = await startRedisServer();
      stopRedis = () => redis.stop();
      env.TTL_URL = redis.url;
    }
    const standIns = await startDestinationStandIns();
    // The races and the polling of the payment rows stay under the key's rate limit (not this suite's subject).
    const limits = { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '2000' };
    running = await startSystem({ ...standIns.forwarderEnv, ...PAYMENT_ENV, ...limits, ...env }, 'vaultline-idempotency-');
    const matrix = {
      default_flow: 'simulator_auto_capture',
      rules: [{ name: 'manual', when: { reference_prefix: MANUAL_PREFIX }, flow: 'simulator_manual_capture' }],
    };
    await new PaymentsApi(running.merchant).ok('PUT', '/flow-matrix', { json: matrix });
    const [token, initialRecurring, authorized] = await Promise.all([
      running.merchant.createToken(FORWARD_CARDS.visa),
      paidPayment(running, '/payments/recurring', { reference: 'idempotency-initial', recurring_frequency: 30, recurring_expiry: dayFromNow(90) }, 'captured'),
      paidPayment(running, '/payments/one-off', { reference: `${MANUAL_PREFIX}idempotency` }, 'authorized'),
    ]);
    context = { standIns, token, initialRecurring, authorized };
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await context?.standIns.stop();
    await stopRedis();
  });

  it.each(effects.map((effect) => [effect.name, effect] as const))(
    `when ${RACERS} identical %s requests race with one key, then the effect happens once, every other answer is a replay or 409 idempotency_key_in_use, and a later repeat replays the first answer`,
    async (_name, effect) => {
      const key = freshIdempotencyKey();
      const before = await effect.count(context, running.merchant, key);

      const outcome = await race(RACERS, () => effect.send(context, running.merchant, key));
      const later = await effect.send(context, running.merchant, key);

      console.info(`${effect.name}, ${RACERS} racers: ${describeRace(outcome)}`);
      expect(outcome.other.map((answer) => `${answer.status} ${answer.text}`)).toEqual([]);
      expect(outcome.ran).toHaveLength(1);
      expect(await effect.count(context, running.merchant, key)).toBe(before + 1);
      const first = outcome.ran[0]!;
      for (const replay of [...outcome.replayed, later]) {
        expect({ status: replay.status, text: replay.text }).toEqual({ status: first.status, text: first.text });
      }
      expect(later.headers.get('idempotent-replayed')).toBe('true');
    },
    120_000,
  );
});
