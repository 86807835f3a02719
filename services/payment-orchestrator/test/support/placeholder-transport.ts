import { encodedBody } from '../../src/clients/forwarder-egress-transport';
import type { ProcessorBodyFormat } from '../../src/processors/processor-wire';
import type { ProcessorTransport } from '../../src/processors/transport-port';

export interface TestCard {
  number: string;
  expiry_month: number;
  expiry_year: number;
  security_code: string | null;
}

/**
 * A transport for plugin contract tests: it fills the forwarder's placeholders (whole string values) from
 * a table of test tokens and sends over plain HTTP, as the forwarder would after its checks. The real path
 * (allowlist, vault, egress, forward.completed) is the forwarder's internal API, tested there and end to end.
 */
/** `integerExpiry`: how the forwarder types expiry placeholders for destinations that want integers (Checkout.com). */
/** `timeoutMs`: how long a forward waits for the processor (the forwarder's FORWARD_TIMEOUT); then it throws, as the forwarder's call does. */
export function placeholderTransport(
  cards: Record<string, TestCard>,
  { integerExpiry = false, timeoutMs = 0 } = {},
): ProcessorTransport & { sent: Array<{ url: string; headers: Record<string, string> }> } {
  const sent: Array<{ url: string; headers: Record<string, string> }> = [];
  const fill = (value: unknown, card: TestCard): unknown => {
    if (typeof value === 'string') {
      const name = /^\{\{ ?([a-z_]+) ?\}\}$/.exec(value)?.[1];
      if (name === 'account_number') return card.number;
      if (name === 'expiration_month') return integerExpiry ? card.expiry_month : String(card.expiry_month).padStart(2, '0');
      if (name === 'expiration_year') return integerExpiry ? card.expiry_year : String(card.expiry_year);
      if (name === 'security_code') return card.security_code;
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => fill(item, card));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, card)]));
    return value;
  };
  const post = async (url: string, method: string, headers: Record<string, string>, body: unknown, format: ProcessorBodyFormat = 'json', timeout = 0) => {
    sent.push({ url, headers });
    // As the forwarder and egress send them: JSON, the text fields form-encoded in their order, or multipart (files).
    const encoded = body === undefined ? null : encodedBody(format, body);
    const response = await fetch(url, {
      method,
      headers: { ...headers, ...(encoded?.contentType ?? {}) },
      ...(encoded ? { body: encoded.body } : {}),
      ...(timeout > 0 ? { signal: AbortSignal.timeout(timeout) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  };
  return {
    sent,
    async forward({ tokenId, url, headers, format, body }) {
      // '*': the card behind any token (payments made through the harness get fresh token ids).
      const card = cards[tokenId] ?? cards['*'];
      if (!card) throw new Error(`no test card for token ${tokenId}`);
      return post(url, 'POST', headers, fill(body, card), format, timeoutMs);
    },
    send: ({ url, method, headers, format, body }) => post(url, method, headers, body, format),
  };
}
