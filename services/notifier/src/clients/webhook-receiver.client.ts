import {
  EgressBlockedError,
  EgressResponseTooLargeError,
  EgressTimeoutError,
  EgressUnreachableError,
  checkPublicUrl,
  createEgressClient,
  isLoopbackHostname,
  type EgressClient,
  type EgressProxy,
} from '@vaultline/egress';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Mode } from '@vaultline/core';
import { EndpointUrlNotAllowedError } from '../domain/errors';
import type { TransportResult } from '../domain/delivery-outcome';
import type { EndpointUrlCheck, OutgoingWebhook, WebhookTransport } from '../domain/ports';

export interface ReceiverPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and loopback/private receivers in both modes (tests, demos). */
  allowPrivate: boolean;
  /** The service runs on loopback (config.ts, runsOnLoopback): test-mode endpoints may be loopback receivers. */
  loopbackInTestMode: boolean;
}

export interface WebhookReceiverClientOptions extends ReceiverPolicy {
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Connections kept open per receiver origin. */
  connectionsPerOrigin: number;
  /** EGRESS_PROXY_URL's CONNECT proxy, for every receiver but a test-mode one on this machine. */
  proxy?: EgressProxy | undefined;
}

const tracer = trace.getTracer('@vaultline/notifier');

/** We never read the receiver's body; a large one only has to be drained. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Whether a receiver is a loopback one a test-mode endpoint may have: the service runs on loopback, the
 * endpoint is a test one, and its URL names loopback (localhost, 127.0.0.0/8, [::1]). Such a receiver is
 * then reached only through a loopback-only egress client: every address its name resolves to must be
 * loopback at connect time, so nothing beyond this machine's loopback opens up (no private range, no
 * metadata address, not in live mode).
 */
function isLocalTestReceiver(policy: ReceiverPolicy, url: string, mode: Mode): boolean {
  if (!policy.loopbackInTestMode || mode !== 'test') return false;
  try {
    return isLoopbackHostname(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Webhooks leave through the shared egress client: address checks at connect time, no redirects, timeouts. */
export function createWebhookReceiverClient(options: WebhookReceiverClientOptions): WebhookTransport & { close(): Promise<void> } {
  const common = {
    connectTimeoutMs: options.connectTimeoutMs,
    totalTimeoutMs: options.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    connectionsPerOrigin: options.connectionsPerOrigin,
  };
  const client: EgressClient = createEgressClient({ ...common, allowPrivate: options.allowPrivate, httpsOnly: !options.allowPrivate, proxy: options.proxy });
  // Test-mode endpoints on this machine (the service runs on loopback): http or https, loopback addresses only.
  const localClient: EgressClient = createEgressClient({ ...common, allowPrivate: false, httpsOnly: false, loopbackOnly: true });
  const clientFor = (request: OutgoingWebhook) => (!options.allowPrivate && isLocalTestReceiver(options, request.url, request.mode) ? localClient : client);
  return {
    // A client span per attempt (undici is not instrumented). No traceparent goes to the receiver: the
    // merchant's endpoint is outside the system, and the trace ends here.
    send: (request: OutgoingWebhook) =>
      tracer.startActiveSpan(
        'POST webhook',
        { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'server.address': hostOf(request.url) } },
        async (span): Promise<TransportResult> => {
          try {
            const response = await clientFor(request).request({ url: request.url, method: 'POST', headers: request.headers, body: request.body });
            span.setAttribute('http.response.status_code', response.status);
            if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
            return { kind: 'response', status: response.status, headers: response.headers };
          } catch (error) {
            const result = transportError(error);
            span.setStatus({ code: SpanStatusCode.ERROR, message: result.kind === 'error' ? result.error : 'error' });
            return result;
          } finally {
            span.end();
          }
        },
      ),
    close: async () => {
      await Promise.all([client.close(), localClient.close()]);
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function transportError(error: unknown): TransportResult {
  if (error instanceof EgressTimeoutError) return { kind: 'error', error: 'timeout', detail: error.message };
  if (error instanceof EgressUnreachableError) return { kind: 'error', error: 'unreachable', detail: error.message };
  if (error instanceof EgressBlockedError) return { kind: 'error', error: 'blocked', detail: error.reason };
  if (error instanceof EgressResponseTooLargeError) return { kind: 'error', error: 'response_too_large', detail: error.message };
  return { kind: 'error', error: 'error', detail: 'unexpected transport error' };
}

/**
 * Checks an endpoint URL when it is saved, like forwarding destinations: https and public addresses only,
 * except a test-mode endpoint on this machine while the service runs on loopback (checked with the
 * loopback-only policy the delivery uses), and anything with WEBHOOK_ALLOW_PRIVATE_URLS.
 */
export function egressUrlCheck(policy: ReceiverPolicy): EndpointUrlCheck {
  return async (url, mode) => {
    try {
      if (policy.allowPrivate) await checkPublicUrl(url, { allowPrivate: true, httpsOnly: false });
      else if (isLocalTestReceiver(policy, url, mode)) await checkPublicUrl(url, { allowPrivate: false, httpsOnly: false, loopbackOnly: true });
      else await checkPublicUrl(url, { allowPrivate: false, httpsOnly: true });
    } catch (error) {
      if (error instanceof EgressBlockedError) throw new EndpointUrlNotAllowedError(urlRefusal(error, url, mode, policy));
      throw error;
    }
  };
}

/** What a refused URL needs, naming the way out for a receiver on the developer's machine. */
function urlRefusal(error: EgressBlockedError, url: string, mode: Mode, policy: ReceiverPolicy): string {
  let local = false;
  try {
    local = isLoopbackHostname(new URL(url).hostname);
  } catch {
    // Not a URL: invalid_url below.
  }
  const howLocal = ` ${local ? localReceiverHint(mode, policy) : 'WEBHOOK_ALLOW_PRIVATE_URLS=true on the service allows http and private receivers (development only).'}`;
  switch (error.reason) {
    case 'scheme_not_allowed':
      return `Webhook endpoint URLs must use https.${howLocal}`;
    case 'private_address':
      return `Webhook endpoint URLs must resolve to public addresses (no loopback, private or link-local ranges).${howLocal}`;
    case 'unresolvable_address':
      return 'The host name of the webhook endpoint URL does not resolve.';
    case 'userinfo_not_allowed':
      return 'Webhook endpoint URLs must not contain credentials.';
    default:
      return 'The webhook endpoint URL is not a valid absolute URL.';
  }
}

/** Why a localhost receiver was refused here, and what would allow it. */
function localReceiverHint(mode: Mode, policy: ReceiverPolicy): string {
  const ways =
    'Set WEBHOOK_ALLOW_PRIVATE_URLS=true on the service to allow http and private receivers (development only), or receive events without an endpoint: vaultline listen --forward-to <url>.';
  if (mode === 'live')
    return `A live-mode endpoint is never a loopback receiver; a test key (sk_test_…) may register one while the service runs on loopback. ${ways}`;
  if (!policy.loopbackInTestMode)
    return `Test-mode endpoints on localhost are accepted only while the service runs on loopback (HOST and PUBLIC_BASE_URL on loopback), which it does not. ${ways}`;
  return ways;
}
