import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startForwarder } from './forwarder-harness';

const MERCHANT = 'mer_a';

/** A PSP stand-in that holds every answer until `release()`, counting how many requests it holds at once. */
async function startHoldingDestination() {
  const held: Array<() => void> = [];
  let mostAtOnce = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      held.push(() => {
        res.setHeader('content-type', 'application/json');
        res.end('{"resultCode":"Authorised"}');
      });
      mostAtOnce = Math.max(mostAtOnce, held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v69/payments`,
    holding: () => held.length,
    mostAtOnce: () => mostAtOnce,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each([
  ['by default', {}, 40],
  ['with FORWARD_MAX_CONNECTIONS_PER_DESTINATION=4', { FORWARD_MAX_CONNECTIONS_PER_DESTINATION: '4' }, 4],
])('forwards in flight to one destination %s', (_name, extraEnv, expectedAtOnce) => {
  it(`when 40 forwards to a slow destination overlap, then ${expectedAtOnce} of them are at the destination at once and all are answered`, async () => {
    const destination = await startHoldingDestination();
    const forwarder = await startForwarder({ FORWARD_HTTPS_ONLY: 'false', FORWARD_EXTRA_DESTINATIONS: destination.url, ...extraEnv });
    try {
      const token = randomUUID();
      forwarder.vault.tokens.set(token, { merchantId: MERCHANT, number: '4111111111111111', expMonth: 3, expYear: 2030, cvc: '737', cvcStatus: 'available' });
      const headers = { 'content-type': 'application/json', 'x-service-token': token, 'x-destination-url': destination.url };
      const body = JSON.stringify({ paymentMethod: { number: '{{ account_number }}' } });

      let settled = false;
      const answers = Promise.all(Array.from({ length: 40 }, () => forwarder.call(MERCHANT, ['merchant'], 'POST', '/forward', headers, body))).finally(
        () => (settled = true),
      );
      // Wait for the condition, not a clock: on a busy machine the 40 requests take their time to arrive.
      while (destination.holding() < expectedAtOnce) await new Promise((resolve) => setTimeout(resolve, 10));
      // Give any request beyond the limit time to arrive (it must not).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const atOnce = destination.holding();
      // Answer what is held until every forward got its answer (the rest arrive as connections free up).
      while (!settled) {
        destination.release();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }

      expect(atOnce).toBe(expectedAtOnce);
      expect(destination.mostAtOnce()).toBe(expectedAtOnce);
      expect((await answers).map((answer) => answer.status)).toEqual(Array(40).fill(200));
    } finally {
      await forwarder.stop();
      await destination.close();
    }
  });
});
