import { connect, type Socket } from 'node:net';
import { EgressBlockedError, EgressTimeoutError, EgressUnreachableError } from './egress-errors';

/**
 * An HTTP CONNECT egress proxy (Smokescreen, Squid, Envoy …): the one place in the network the services that
 * call out may reach, which allows destinations by host name. Network policies cannot name hosts; the proxy can.
 */
export interface EgressProxy {
  host: string;
  port: number;
}

/** EGRESS_PROXY_URL: http://host:port (the tunnel carries the destination's own TLS end to end). */
export function parseEgressProxy(url: string): EgressProxy {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || parsed.username || parsed.password || (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search) {
    throw new Error('an egress proxy is http://host:port (a CONNECT proxy; no credentials, path or query)');
  }
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 80) };
}

const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Opens a tunnel through the proxy to `host:port` — by name, so that the proxy's allowlist and its own
 * address checks see the destination as the caller named it — and hands over the socket once the proxy
 * answered 2xx. A refusal (403 and the like) is an EgressBlockedError: nothing reached the destination.
 */
export function openTunnel(
  proxy: EgressProxy,
  target: { host: string; port: string | number },
  timeoutMs: number,
  callback: (error: Error | null, socket: Socket | null) => void,
): void {
  const authority = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const socket = connect({ host: proxy.host, port: proxy.port });
  let head = Buffer.alloc(0);
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    socket.removeListener('data', onData);
    socket.setTimeout(0);
    if (error) {
      socket.destroy();
      callback(error, null);
    } else callback(null, socket);
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) {
      if (head.length > MAX_HEAD_BYTES) settle(new EgressUnreachableError('The egress proxy answered with an oversized head.'));
      return;
    }
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1]);
    // Bytes past the head belong to the tunnel (a proxy should send none before the client speaks).
    const rest = head.subarray(end + 4);
    if (status >= 200 && status < 300) {
      if (rest.length > 0) socket.unshift(rest);
      settle(null);
    } else if (status === 403 || status === 407 || status === 451) {
      settle(new EgressBlockedError('proxy_refused', 'The egress proxy does not allow this destination.'));
    } else {
      settle(
        new EgressUnreachableError(
          Number.isFinite(status)
            ? `The egress proxy could not reach the destination (HTTP ${status}).`
            : 'The egress proxy answered with something other than HTTP.',
        ),
      );
    }
  };
  socket.on('data', onData);
  socket.setTimeout(timeoutMs, () => settle(new EgressTimeoutError('connect')));
  socket.once('error', () => settle(new EgressUnreachableError('The egress proxy could not be reached.')));
  socket.once('close', () => settle(new EgressUnreachableError('The egress proxy closed the connection.')));
  socket.once('connect', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
}
