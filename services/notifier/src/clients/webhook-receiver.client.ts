import {
  EgressBlockedError,
  EgressResponseTooLargeError,
  EgressTimeoutError,
  EgressUnreachableError,
  checkPublicUrl,
  createEgressClient,
  type EgressClient,
} from '@vaultline/egress';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { EndpointUrlNotAllowedError } from '../domain/errors';
import type { TransportResult } from '../domain/delivery-outcome';
import type { EndpointUrlCheck, OutgoingWebhook, WebhookTransport } from '../domain/ports';

export interface WebhookReceiverClientOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and loopback/private receivers (tests, local demos). */
  allowPrivate: boolean;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Connections kept open per receiver origin. */
  connectionsPerOrigin: number;
}

const tracer = trace.getTracer('@vaultline/notifier');

/** We never read the receiver's body; a large one only has to be drained. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Webhooks leave through the shared egress client: address checks at connect time, no redirects, timeouts. */
export function createWebhookReceiverClient(options: WebhookReceiverClientOptions): WebhookTransport & { close(): Promise<void> } {
  const client: EgressClient = createEgressClient({
    allowPrivate: options.allowPrivate,
    httpsOnly: !options.allowPrivate,
    connectTimeoutMs: options.connectTimeoutMs,
    totalTimeoutMs: options.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    connectionsPerOrigin: options.connectionsPerOrigin,
  });
  return {
    // A client span per attempt (undici is not instrumented). No traceparent goes to the receiver: the
    // merchant's endpoint is outside the system, and the trace ends here.
    send: (request: OutgoingWebhook) =>
      tracer.startActiveSpan('POST webhook', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'server.address': hostOf(request.url) } }, async (span): Promise<TransportResult> => {
        try {
          const response = await client.request({ url: request.url, method: 'POST', headers: request.headers, body: request.body });
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
      }),
    close: () => client.close(),
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

/** Checks an endpoint URL when it is saved, like forwarding destinations: https and public addresses only in production. */
export function egressUrlCheck(allowPrivate: boolean): EndpointUrlCheck {
  return async (url) => {
    try {
      await checkPublicUrl(url, { allowPrivate, httpsOnly: !allowPrivate });
    } catch (error) {
      if (error instanceof EgressBlockedError) throw new EndpointUrlNotAllowedError(urlRefusal(error));
      throw error;
    }
  };
}

function urlRefusal(error: EgressBlockedError): string {
  switch (error.reason) {
    case 'scheme_not_allowed':
      return 'Webhook endpoint URLs must use https.';
    case 'private_address':
      return 'Webhook endpoint URLs must resolve to public addresses (no loopback, private or link-local ranges).';
    case 'unresolvable_address':
      return 'The host name of the webhook endpoint URL does not resolve.';
    case 'userinfo_not_allowed':
      return 'Webhook endpoint URLs must not contain credentials.';
    default:
      return 'The webhook endpoint URL is not a valid absolute URL.';
  }
}
