import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { RelayedRequest, RelayedResponse } from '@vaultline/runtime';

/**
 * Runs one relayed request through a service's HTTP handler (its express app) in memory: a real
 * IncomingMessage carrying the method, path, headers and the whole body, and a real ServerResponse
 * whose head and body are captured instead of written to a socket. The handler cannot tell it from a
 * request over loopback HTTP; nothing is parsed or serialized twice.
 *
 * The capture lives in own properties of the response object (writeHead, write, end): express
 * replaces the prototype of every response it handles, own properties survive that, and the same
 * express app keeps serving real connections on its loopback port.
 */
export function exchangeInMemory(handler: RequestListener, request: RelayedRequest, clientAddress: string): Promise<RelayedResponse> {
  return new Promise((resolve, reject) => {
    const socket = detachedSocket(clientAddress);
    const req = new IncomingMessage(socket);
    req.method = request.method;
    req.url = request.url;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.headers = { ...request.headers };
    req.rawHeaders = Object.entries(request.headers).flat();
    if (request.body && request.body.length > 0) req.push(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength));
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    const chunks: Buffer[] = [];
    let settled = false;
    const markHeadSent = (): void => {
      // What headersSent reads: the head is fixed from here on.
      if (!res.headersSent) (res as unknown as { _header: string })._header = `HTTP/1.1 ${res.statusCode}\r\n`;
    };
    const own = res as unknown as Record<string, unknown>;
    own.writeHead = (status: number, reasonOrHeaders?: string | OutgoingHttpHeaders | string[], maybeHeaders?: OutgoingHttpHeaders | string[]) => {
      res.statusCode = status;
      const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
      if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
      else if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
      markHeadSent();
      return res;
    };
    own.write = (chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean => {
      markHeadSent();
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined));
      const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    };
    own.end = (chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown): ServerResponse => {
      if (res.writableEnded) return res;
      const done = [chunk, encodingOrCallback, callback].find((argument) => typeof argument === 'function') as (() => void) | undefined;
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined));
      markHeadSent();
      res.finished = true;
      settle();
      res.emit('prefinish');
      res.emit('finish');
      if (done) queueMicrotask(done);
      res.emit('close');
      return res;
    };

    function settle(): void {
      if (settled) return;
      settled = true;
      const body = Buffer.concat(chunks);
      const headers = res.getHeaders() as RelayedResponse['headers'];
      // As over HTTP: a body with no declared length has the length it has (HEAD answers none).
      if (headers['content-length'] === undefined && request.method !== 'HEAD') headers['content-length'] = body.length;
      resolve({ status: res.statusCode, headers, body: request.method === 'HEAD' ? new Uint8Array(0) : body });
    }
    res.once('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    try {
      handler(req, res);
    } catch (error) {
      settled = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** Stands in for the connection: the client address, and no I/O (the body is already in the request). */
function detachedSocket(remoteAddress: string): Socket {
  const socket: Record<string, unknown> = {
    remoteAddress,
    remotePort: 0,
    remoteFamily: 'IPv4',
    localAddress: '127.0.0.1',
    localPort: 0,
    encrypted: false,
    // Readable, as a live connection is: body parsers skip the body of a request whose socket is not.
    readable: true,
    writable: true,
    destroyed: false,
    readableHighWaterMark: 16 * 1024,
  };
  for (const method of ['on', 'once', 'off', 'removeListener', 'setTimeout', 'setNoDelay', 'setKeepAlive', 'destroy', 'pause', 'resume']) socket[method] = () => socket;
  return socket as unknown as Socket;
}

function toBuffer(chunk: unknown, encoding: string | undefined): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), (encoding ?? 'utf8') as BufferEncoding);
}
