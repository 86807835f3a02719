import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BusHealth } from '@vaultline/bus';
import { busReadinessGate } from './bus-readiness';

async function serve(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('readiness of a standalone service on its bus', () => {
  let health: BusHealth;
  const service: RequestListener = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}');

  it('when Kafka has not answered since the start, then /ready answers 503 not_ready saying so, while /health and the API are still served', async () => {
    health = {
      failing: [],
      unreachable: { since: '2026-11-28T10:00:00.000Z', error: 'KafkaJSConnectionError: Connection error: connect ECONNREFUSED <broker>', starting: true },
    };
    const server = await serve(busReadinessGate({ health: () => health })(service));
    try {
      const ready = await fetch(`${server.url}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        code: 'not_ready',
        detail: expect.stringContaining('the bus has not answered since the service started (KafkaJSConnectionError'),
      });
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/tokens`)).status).toBe(200);

      health = { failing: [] };
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('when a subscription stopped consuming, then /ready names its group and topics', async () => {
    health = {
      failing: [
        { group: 'notifier.merchant-events', topics: ['payments.payments'], error: 'KafkaJSProtocolError: not authorized', since: '2026-11-28T10:00:00.000Z' },
      ],
    };
    const server = await serve(busReadinessGate({ health: () => health })(service));
    try {
      const ready = await fetch(`${server.url}/ready`);
      expect(ready.status).toBe(503);
      expect((await ready.json()) as { detail: string }).toMatchObject({
        detail: expect.stringContaining('notifier.merchant-events (payments.payments) since 2026-11-28T10:00:00.000Z'),
      });
    } finally {
      await server.close();
    }
  });
});
