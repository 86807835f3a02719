import type { RequestListener } from 'node:http';
import { assertSubscriptionsConsuming, type Bus } from '@vaultline/bus';
import { isAppError } from '@vaultline/core';

/**
 * /ready of a standalone process fails, saying why, while its bus does not answer or one of its
 * subscriptions stopped consuming (BusHealth, after BUS_UNHEALTHY_AFTER_SECONDS; at once while the bus has
 * not answered since the start): for every service, those that only publish included. Everything else,
 * /health too, is served as before: the service keeps answering, and its outbox keeps the events.
 */
export function busReadinessGate(bus: Pick<Bus, 'health'>): (handler: RequestListener) => RequestListener {
  return (handler) => (req, res) => {
    if ((req.url ?? '').split('?')[0] === '/ready') {
      try {
        assertSubscriptionsConsuming(bus);
      } catch (error) {
        const detail = isAppError(error) ? error.message : 'The bus is not usable.';
        res.writeHead(503, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'not_ready', detail }));
        return;
      }
    }
    handler(req, res);
  };
}
