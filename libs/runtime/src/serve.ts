import { STATUS_CODES, createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import type { TlsFiles } from './runtime-config';

/** TLS for a listener; with `ca` and `requestCert`, mutual TLS (see mutualTlsServerOptions). */
export type ListenTls = TlsFiles & { ca?: Buffer; requestCert?: boolean; rejectUnauthorized?: boolean };

export interface Listening {
  server: Server;
  url: string;
  /** Replaces the request handler (servers listen before the apps exist, so ports are known). */
  handle(listener: RequestListener): void;
  /** Closes at once: requests in flight are cut off. */
  close(): Promise<void>;
  /**
   * Stops accepting connections and lets the requests in flight finish: each keep-alive connection is
   * closed as soon as it is idle (its client reconnects elsewhere, or finds nothing listening). Resolves
   * when the last one closed; never cuts a request off (the caller's grace period does).
   */
  drain(): Promise<void>;
}

/**
 * Listens on host:port (0 = any free port) with a handler that answers 503 until one is attached.
 * With `tls`, HTTPS only: a plain HTTP request on the port gets no HTTP answer.
 */
export async function listen(host: string, port: number, tls?: ListenTls): Promise<Listening> {
  let current: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: '/docs/errors#starting', title: 'Starting', status: 503, code: 'starting', detail: 'The service is starting.' }));
  };
  const handler: RequestListener = (req, res) => current(req, res);
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    server,
    url: `${tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
    handle: (listener) => {
      current = listener;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    drain: () => drain(server),
  };
}

/**
 * Requests Node refuses before any handler sees them (headers over its 16 KB limit, a malformed request
 * line, a header timeout) get Node's bare status line by default; here they get the same
 * application/problem+json as every other refusal. A socket that cannot be written to is only closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers (with the URL) are larger than the server accepts.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time.']
        : [400, 'malformed_request', 'The request is not valid HTTP.'];
  // Answered before any app (and its PUBLIC_BASE_URL) sees the request: a relative reference, which the
  // client resolves against the URL it called, i.e. the errors page of this very service.
  const body = JSON.stringify({ type: `/docs/errors#${code}`, title: STATUS_CODES[status], status, detail, code, request_id: '' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const IDLE_CHECK_MS = 25;

function drain(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    // A response written while draining tells its client the connection ends (no further request on it).
    server.on('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    });
    const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_CHECK_MS);
    server.close(() => {
      clearInterval(idleSweep);
      resolve();
    });
  });
}
