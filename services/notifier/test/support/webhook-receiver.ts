import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  /** Answer after this long (a slow receiver). */
  delayMs?: number;
}

/** Decides the answer to the n-th request (1-based) on a path. */
export type ReceiverScript = (request: ReceivedWebhook, n: number) => ScriptedResponse;

/** A real HTTP server on loopback that records what it receives and answers as scripted. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly counts = new Map<string, number>();
  private readonly scripts = new Map<string, ReceiverScript>();
  private server!: Server;
  url = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const request: ReceivedWebhook = { path: req.url ?? '/', headers: flatten(req.headers), body, receivedAt: Date.now() };
        receiver.received.push(request);
        const n = (receiver.counts.get(request.path) ?? 0) + 1;
        receiver.counts.set(request.path, n);
        const script: ReceiverScript = receiver.scripts.get(request.path) ?? (() => ({ status: 204 }));
        const answer = script(request, n);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, answer.headers);
          res.end();
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** How requests to `path` are answered (default 204). */
  on(path: string, script: ReceiverScript): string {
    this.scripts.set(path, script);
    return `${this.url}${path}`;
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
