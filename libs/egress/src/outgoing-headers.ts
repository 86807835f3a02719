import { EgressInvalidHeaderError } from './egress-errors';

/** Connection-level headers (RFC 9110 §7.6.1) and Host: the egress client owns them, callers never set them. */
const OWNED_BY_TRANSPORT = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'http2-settings',
]);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, obs-text and inner spaces/tabs only: no CR, LF, NUL or other controls.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Returns the headers to send: names lower-cased, hop-by-hop headers (and any header the caller's
 * Connection header names) dropped, Host and Content-Length left to the transport.
 * Throws before anything is sent if a name is not a token or a value holds CR, LF or another control character.
 */
export function sanitizeOutgoingHeaders(headers: Record<string, string>): Record<string, string> {
  const named = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'connection') value.split(',').forEach((token) => named.add(token.trim().toLowerCase()));
  }
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name) || typeof value !== 'string' || !FIELD_VALUE.test(value)) throw new EgressInvalidHeaderError(name);
    const lower = name.toLowerCase();
    if (OWNED_BY_TRANSPORT.has(lower) || named.has(lower)) continue;
    result[lower] = value.trim();
  }
  return result;
}
