import { startRedisServer } from '@vaultline/testing';
import { startDestinationStandIns, type DestinationStandIns } from './support/destination-stand-ins';
import { FORWARD_CARDS, forwardToAdyen, freshIdempotencyKey } from './support/forward-scenario';
import { earlierPaymentEffects } from './support/earlier-payments-idempotency';
import { describeRace, race, type IdempotentEffect } from './support/idempotency';
import { startSystem, type RunningSystem, type TokenView } from './support/merchant-api';

interface Context {
  standIns: DestinationStandIns;
  /** A token with its security code, for the forwards. */
  token: TokenView;
}

const RACERS = 50;

/**
 * Every effect a retried POST must not repeat. Payments (creation, subsequent, capture) join as rows
 * once the payment orchestrator is on main: send the request, count the payments or captures at the
 * processor stand-in.
 */
const effects: Array<IdempotentEffect<Context>> = [
  {
    name: 'POST /tokens (one token)',
    send: (_context, merchant, key) => merchant.call('POST', '/tokens', { json: { card: FORWARD_CARDS.amex, business_key: `bk-${key}` }, headers: { 'Idempotency-Key': key } }),
    count: async (_context, merchant, key) => (await merchant.tokensByBusinessKey(`bk-${key}`)).length,
  },
  {
    name: 'POST /forward (one request at the destination)',
    send: (context, merchant, key) => forwardToAdyen(merchant, context.token.id, context.standIns.adyen.url, key),
    count: async (context) => context.standIns.adyen.received.length,
  },
  ...earlierPaymentEffects,
];

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
    running = await startSystem({ ...standIns.forwarderEnv, ...env }, 'vaultline-idempotency-');
    context = { standIns, token: await running.merchant.createToken(FORWARD_CARDS.visa) };
  });

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
  );
});
