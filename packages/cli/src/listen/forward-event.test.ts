import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describeForward } from './listener';
import { forwardEvent, webhookFor, type Event } from './forward-event';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const EVENT: Event = {
  id: '01a22267-0c5a-75d9-b7c1-c74a77e97a1c',
  object: 'event',
  type: 'payment.captured',
  livemode: false,
  created_at: '2026-11-28T13:45:08.000Z',
  data: { payment_id: '01a22267-09f4-7523-9944-aeac45a8845f', status: 'captured' },
};

describe('a forwarded event', () => {
  it("when signed with the listener's secret, then a Standard Webhooks receiver verifies it and reads the webhook body the service would send", () => {
    const { body, headers } = webhookFor(EVENT, SECRET, new Date());
    expect(JSON.parse(body)).toEqual({ type: 'payment.captured', timestamp: EVENT.created_at, livemode: false, data: EVENT.data });
    expect(headers['webhook-id']).toBe(EVENT.id);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(body, headers)).toThrow();
  });

  it('when the receiver answers, then the outcome is its status; when nothing listens, then the reason, and nothing is thrown', async () => {
    let received: { headers: IncomingHttpHeaders; body: string } | undefined;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received = { headers: req.headers, body };
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    try {
      const outcome = await forwardEvent(url, EVENT, SECRET);
      expect(outcome).toMatchObject({ status: 202 });
      expect(received!.headers['webhook-id']).toBe(EVENT.id);
      expect(describeForward(EVENT, url, outcome, false)).toMatch(
        new RegExp(`payment\\.captured\\s+${EVENT.id}  --> \\[202\\] POST ${url.replace(/[.]/g, '\\.')} \\(\\d+ ms\\)$`),
      );
      expect(JSON.parse(describeForward(EVENT, url, outcome, true))).toMatchObject({ event_id: EVENT.id, type: 'payment.captured', status: 202 });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const refused = await forwardEvent(url, EVENT, SECRET);
    expect(refused).toMatchObject({ error: 'ECONNREFUSED' });
    expect(describeForward(EVENT, url, refused, false)).toContain('[failed: ECONNREFUSED]');
  });
});
