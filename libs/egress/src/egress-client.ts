import { Agent, buildConnector, errors as undiciErrors } from 'undici';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { AppError } from '@vaultline/core';
import { EgressBlockedError, EgressResponseTooLargeError, EgressTimeoutError, EgressUnreachableError } from './egress-errors';
import { resolveCheckedAddresses, stripBrackets, systemResolver, type HostResolver } from './address-guard';
import { addressPolicyOf, parseEgressUrl } from './check-public-url';
import { sanitizeOutgoingHeaders } from './outgoing-headers';
import { openTunnel, type EgressProxy } from './proxy-tunnel';

export interface EgressClientOptions {
  /** Skip the address check entirely (only for a fully local profile). */
  allowPrivate: boolean;
  /** Refuse plain http URLs. */
  httpsOnly: boolean;
  /**
   * Connect to loopback addresses only (127.0.0.0/8, ::1), whatever the host name resolves to: a
   * receiver on this machine and nothing else (the notifier's test-mode endpoints on a loopback service).
   */
  loopbackOnly?: boolean;
  /** DNS resolution plus TCP (and TLS) handshake. */
  connectTimeoutMs: number;
  /** From the start of the request to the last byte of the response body. */
  totalTimeoutMs: number;
  maxResponseBytes: number;
  /** host:port pairs (or URLs) reachable although their addresses are private, e.g. from FORWARD_EXTRA_DESTINATIONS. */
  allowPrivateHosts?: string[];
  /** DNS resolver; the system resolver unless a test injects one. */
  resolve?: HostResolver;
  /** Connections kept per origin (keep-alive pool). Default 16. */
  connectionsPerOrigin?: number;
  /**
   * Every connection through this HTTP CONNECT proxy (EGRESS_PROXY_URL), after the same address check: the
   * network lets the pod reach the proxy only, and the proxy allows destinations by name. Not for a
   * loopback-only client (a receiver on this machine).
   */
  proxy?: EgressProxy;
}

export interface EgressRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  timings: { totalMs: number };
}

export interface EgressClient {
  request(options: EgressRequest): Promise<EgressResponse>;
  close(): Promise<void>;
}

const METHOD = /^[A-Z]{3,10}$/;
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE']);

/** `host:port` with the scheme's default port filled in; the key of allowPrivateHosts. */
export function hostPortKey(hostname: string, port: string, protocol: string): string {
  const effectivePort = port !== '' ? port : protocol === 'https:' ? '443' : '80';
  return `${stripBrackets(hostname).toLowerCase()}:${effectivePort}`;
}

function normaliseAllowedHost(entry: string): string {
  const trimmed = entry.trim();
  const url = new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`);
  const protocol = trimmed.includes('://') ? url.protocol : 'http:';
  return hostPortKey(url.hostname, url.port, protocol);
}

/**
 * The one way out of the process. DNS is resolved once inside the connector, every address is
 * checked, and the socket is opened to the checked address (SNI and certificate checks still use
 * the host name), so a rebinding DNS answer between check and connect is impossible. Redirects are
 * never followed (undici's dispatcher does not follow them; we return the 3xx as is).
 */
export function createEgressClient(options: EgressClientOptions): EgressClient {
  const resolve = options.resolve ?? systemResolver;
  const privateAllowed = new Set((options.allowPrivateHosts ?? []).filter((h) => h.trim() !== '').map(normaliseAllowedHost));
  const baseConnect = buildConnector({ timeout: options.connectTimeoutMs });
  const proxy = options.loopbackOnly ? undefined : options.proxy;

  const guardedConnect: buildConnector.connector = (connectOptions, callback) => {
    const { hostname, protocol, port } = connectOptions;
    const policy = addressPolicyOf({
      loopbackOnly: options.loopbackOnly,
      allowPrivate: options.allowPrivate || privateAllowed.has(hostPortKey(hostname, port, protocol)),
    });
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      callback(new EgressTimeoutError('connect'), null);
    }, options.connectTimeoutMs);
    resolveCheckedAddresses(hostname, policy, resolve).then(
      (addresses) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const address = addresses[0]!;
        const servername = connectOptions.servername ?? (isIP(stripBrackets(hostname)) ? undefined : stripBrackets(hostname));
        if (!proxy) return baseConnect({ ...connectOptions, hostname: address, servername }, callback);
        // Through the proxy, by name (its allowlist and its own address checks see what the caller named);
        // the destination's TLS (SNI, certificate) runs end to end inside the tunnel.
        openTunnel(
          proxy,
          { host: stripBrackets(hostname), port: port || (protocol === 'https:' ? '443' : '80') },
          options.connectTimeoutMs,
          (error, socket) => {
            if (error || !socket) return callback(error ?? new EgressUnreachableError(), null);
            if (protocol === 'https:') return baseConnect({ ...connectOptions, servername, httpSocket: socket }, callback);
            callback(null, socket);
          },
        );
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        callback(error instanceof Error ? error : new EgressUnreachableError(), null);
      },
    );
  };

  const agent = new Agent({
    connect: guardedConnect,
    connections: options.connectionsPerOrigin ?? 16,
    headersTimeout: options.totalTimeoutMs,
    bodyTimeout: options.totalTimeoutMs,
    keepAliveTimeout: 4_000,
  });

  async function request(input: EgressRequest): Promise<EgressResponse> {
    const started = performance.now();
    const url = parseEgressUrl(input.url, options);
    const method = input.method.toUpperCase();
    if (!METHOD.test(method) || REFUSED_METHODS.has(method)) {
      throw new EgressBlockedError('invalid_url', `The method ${JSON.stringify(input.method)} is not allowed for outgoing requests.`);
    }
    const headers = sanitizeOutgoingHeaders(input.headers);
    const controller = new AbortController();
    const totalTimer = setTimeout(() => controller.abort(new EgressTimeoutError('response')), options.totalTimeoutMs);
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: input.body,
        signal: controller.signal,
      });
      const body = await readLimited(response.body, options.maxResponseBytes, response.headers['content-length']);
      return {
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        body,
        timings: { totalMs: performance.now() - started },
      };
    } catch (error) {
      throw translateError(error, controller.signal);
    } finally {
      clearTimeout(totalTimer);
    }
  }

  return {
    request,
    close: () => agent.close(),
  };
}

async function readLimited(body: Dispatcher.ResponseData['body'], limit: number, declaredLength: string | string[] | undefined): Promise<Buffer> {
  const declared = typeof declaredLength === 'string' ? Number(declaredLength) : NaN;
  if (Number.isFinite(declared) && declared > limit) {
    discard(body);
    throw new EgressResponseTooLargeError(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      discard(body);
      throw new EgressResponseTooLargeError(limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

/** Drops the connection of an unwanted body; the abort error it raises is expected and swallowed. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function translateError(error: unknown, signal: AbortSignal): AppError {
  if (signal.aborted && signal.reason instanceof AppError) return signal.reason;
  if (error instanceof AppError) return error;
  if (error instanceof undiciErrors.ConnectTimeoutError) return new EgressTimeoutError('connect');
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new EgressTimeoutError('response');
  }
  return new EgressUnreachableError();
}
