import { Agent, createServer, request, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { Express, Request } from 'express';
import type { InternalTokenSigner } from '@vaultline/auth';
import type { UpstreamService } from '../domain/routing';
import type { Logger } from '@vaultline/logger';
import { requestIdOf, tagServerSpan } from '@vaultline/http';
import { serviceUnavailable, upstreamRequestHeaders, type Upstream, type UpstreamCall, type UpstreamResponse } from './upstream';

export interface InProcessUpstreamOptions {
  service: UpstreamService;
  /** The service's express app, on the gateway's own thread. */
  app: Express;
  signer: InternalTokenSigner;
  logger: Logger;
}

/**
 * The embedded profile's way to a service on the gateway's own thread: HTTP over an in-memory
 * connection to the service's express app, served by an HTTP server that never listens. The service
 * gets a request of its own, exactly as over loopback (the headers HttpUpstream sends, the internal
 * JWT, which it verifies, its own parser and limit), and the gateway an answer it can keep; no port,
 * no socket, no kernel in between. Connections stay open and are reused, as a keep-alive pool's are.
 */
export class InProcessUpstream implements Upstream {
  private readonly server: Server;
  private readonly agent: Agent;

  constructor(private readonly options: InProcessUpstreamOptions) {
    // One process, one service name for every span: the service's server span says which service it is.
    this.server = createServer((req, res) => {
      tagServerSpan('vaultline.service', options.service);
      options.app(req, res);
    });
    this.agent = new InMemoryAgent(this.server);
  }

  send(req: Request, body: Buffer | null, call: UpstreamCall): Promise<UpstreamResponse> {
    const headers = upstreamRequestHeaders(req, body, call, this.options.signer);
    return new Promise((resolve, reject) => {
      const outgoing: ClientRequest = request({ agent: this.agent, method: req.method, path: call.path, headers }, (response: IncomingMessage) =>
        resolve({ status: response.statusCode ?? 500, headers: response.headers, body: response }),
      );
      outgoing.once('error', (error) => {
        this.options.logger.warn({ err: error, service: call.service, request_id: requestIdOf(req) }, 'in-process request failed');
        reject(serviceUnavailable(call.service));
      });
      outgoing.end(body ?? undefined);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
  }
}

/** An agent whose connections are in-memory pairs, the other end handed to `server` as a new connection. */
class InMemoryAgent extends Agent {
  constructor(private readonly server: Server) {
    super({ keepAlive: true, maxSockets: 64 });
  }

  override createConnection(): Duplex {
    const [client, served] = connectionPair();
    this.server.emit('connection', served);
    return client;
  }
}

/** Two ends of an in-memory connection: what one writes, the other reads. */
function connectionPair(): [InMemorySocket, InMemorySocket] {
  const a = new InMemorySocket();
  const b = new InMemorySocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/** One end of an in-memory connection, from the loopback address as far as the server can tell. */
class InMemorySocket extends Duplex {
  peer: InMemorySocket | null = null;
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.peer?.push(chunk);
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.peer?.push(null);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const peer = this.peer;
    this.peer = null;
    if (peer && !peer.destroyed) peer.destroy();
    done(error);
  }

  setKeepAlive(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setTimeout(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}
