import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as signed. */
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  stop(): Promise<void>;
}

/** A merchant's webhook endpoint on loopback: records every delivery and answers 204. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/vaultline`,
    received,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The three Standard Webhooks headers of a delivery, as the `standardwebhooks` package wants them. */
export function signatureHeaders(webhook: ReceivedWebhook): Record<string, string> {
  const one = (name: string) => {
    const value = webhook.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  return { 'webhook-id': one('webhook-id'), 'webhook-timestamp': one('webhook-timestamp'), 'webhook-signature': one('webhook-signature') };
}

/** The payloads of the webhooks about one payment, each verified with the endpoint's secret (standardwebhooks), in the order they arrived. */
export function verifiedPaymentWebhooks(receiver: WebhookReceiver, secret: string, paymentId: string): Array<{ type: string; data: Record<string, unknown> }> {
  return receiver.received
    .map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { type: string; data: Record<string, unknown> })
    .filter((payload) => payload.data.payment_id === paymentId);
}
