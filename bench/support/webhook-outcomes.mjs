import { createServer } from 'node:http';

const OUTCOME_TIMEOUT_MS = 30_000;

/**
 * The merchant's side of a load worker: a webhook receiver on loopback, and a promise per resource that
 * resolves with the status its webhook reports. `idOf` names the resource a webhook body's `data` is about
 * (a payment's `payment_id`, a refund's `id`). An outcome that arrives before its waiter is kept for it.
 */
export async function startOutcomeReceiver(idOf, noun) {
  const waiting = new Map(); // id → resolve(status)
  const early = new Map();
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = idOf(data);
      const resolve = waiting.get(id);
      if (resolve) {
        waiting.delete(id);
        resolve(data.status);
      } else early.set(id, data.status);
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const outcomeOf = (id) =>
    new Promise((resolve, reject) => {
      if (early.has(id)) {
        resolve(early.get(id));
        early.delete(id);
        return;
      }
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`no webhook for ${noun} ${id} within ${OUTCOME_TIMEOUT_MS} ms`));
      }, OUTCOME_TIMEOUT_MS);
      waiting.set(id, (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });

  return {
    url: `http://127.0.0.1:${receiver.address().port}/webhooks`,
    outcomeOf,
    close: () => {
      receiver.closeAllConnections();
      receiver.close();
    },
  };
}
