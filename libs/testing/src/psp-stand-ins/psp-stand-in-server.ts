import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PspAnswer {
  status: number;
  body: unknown;
  /** A page for the consumer's browser (an issuer's challenge) instead of JSON. */
  html?: string;
  /** Extra response headers (a redirect's Location). */
  headers?: Record<string, string>;
}

export interface PspServer {
  baseUrl: string;
  /** The next `count` requests answer `unavailable` (a PSP outage). */
  failNext(count: number): void;
  /** The next request is handled and answered only after `ms` (a PSP slower than the caller's timeout: the charge still happens). */
  delayNext(ms: number): void;
  stop(): Promise<void>;
}

/**
 * The HTTP side every processor stand-in shares: the raw body read (as text, and as bytes for file uploads), an answer delay drawn from
 * [min, max] ms like a real PSP's, outages on demand, JSON answers, a loopback port.
 */
export async function startPspServer(
  options: { delayMs?: [number, number]; unavailable: PspAnswer },
  handle: (req: IncomingMessage, rawBody: string, bytes: Buffer) => PspAnswer,
): Promise<PspServer> {
  let failures = 0;
  let slowNext = 0;
  const [minDelay, maxDelay] = options.delayMs ?? [0, 0];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const slow = slowNext;
        slowNext = 0;
        if (slow > 0) await new Promise((resolve) => setTimeout(resolve, slow));
        if (minDelay > 0 || maxDelay > 0) await new Promise((resolve) => setTimeout(resolve, minDelay + Math.random() * (maxDelay - minDelay)));
        let answer = options.unavailable;
        if (failures > 0) failures -= 1;
        else {
          const bytes = Buffer.concat(chunks);
          answer = handle(req, bytes.toString('utf8'), bytes);
        }
        if (res.destroyed) return;
        if (answer.html !== undefined) res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...answer.headers }).end(answer.html);
        else
          res
            .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
            .end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    failNext: (count) => void (failures = count),
    delayNext: (ms) => void (slowNext = ms),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
