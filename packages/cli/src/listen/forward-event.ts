import { Webhook } from 'standardwebhooks';
import type { MerchantComponents } from '@vaultline/node';

export type Event = MerchantComponents['schemas']['Event'];

/** What a forward came to: the receiver's status, or why there was none. */
export type ForwardOutcome = { status: number; ms: number } | { error: string; ms: number };

/**
 * The webhook the service would send for this event (the notifier's body: type, timestamp, livemode,
 * data), signed the Standard Webhooks way with the listener's secret: `webhook-id` is the event id, so a
 * receiver that dedupes by it sees a forwarded-again event as the same one.
 */
export function webhookFor(event: Event, secret: string, now: Date): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ type: event.type, timestamp: event.created_at, livemode: event.livemode, data: event.data });
  const signature = new Webhook(secret).sign(event.id, now, body);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'vaultline-cli-listen/0.1.0',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

/** POSTs one event to the receiver; never throws (a refused connection is an outcome too). Redirects are not followed. */
export async function forwardEvent(url: string, event: Event, secret: string, timeoutMs = 10_000): Promise<ForwardOutcome> {
  const started = performance.now();
  const { body, headers } = webhookFor(event, secret, new Date());
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (cause ?? (error as Error).message);
    return { error: name, ms: Math.round(performance.now() - started) };
  }
}
