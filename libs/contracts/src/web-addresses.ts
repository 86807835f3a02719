/**
 * Which web addresses a merchant may hand the hosted checkout: the orchestrator refuses others on
 * create and the vault drops them from events (defence in depth), so both read the same rule.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Letters, digits, dots and hyphens (IDNs arrive punycoded), or a bracketed IPv6 literal: the URL parser
 * lets through `*`, `;`, `,` and quotes in hosts, any of which would change a CSP source list. */
const PLAIN_HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/;

/** At most this many origins may frame one checkout session. */
export const MAX_ALLOWED_ORIGINS = 10;

function parsed(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function isWebAddress(url: URL): boolean {
  if (!PLAIN_HOST.test(url.hostname) || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** https, or http for a loopback host only (local development); never javascript:, data:, relative… */
export function isAllowedReturnUrl(value: string): boolean {
  const url = parsed(value);
  return url !== null && isWebAddress(url);
}

/**
 * An https address on a plain host, without credentials: what a merchant may name as an image the page
 * loads (its origin goes into the page's img-src, so it must not carry characters that change a CSP).
 */
export function isHttpsAddress(value: string): boolean {
  const url = parsed(value);
  return url !== null && url.protocol === 'https:' && isWebAddress(url);
}

/**
 * The origin `value` names (scheme, host, port; a trailing slash tolerated), or null when it is not one
 * that may frame the checkout: https, or http on loopback; no path, query, fragment, credentials or wildcard.
 */
export function allowedOriginOf(value: string): string | null {
  const url = parsed(value);
  if (url === null || !isWebAddress(url)) return null;
  if (url.pathname !== '/' || value.includes('?') || value.includes('#')) return null;
  return url.origin;
}

/** The allowed origins among `values`, each once, in order, at most MAX_ALLOWED_ORIGINS. */
export function allowedOriginsOf(values: readonly string[]): string[] {
  const origins = values.map(allowedOriginOf).filter((origin): origin is string => origin !== null);
  return [...new Set(origins)].slice(0, MAX_ALLOWED_ORIGINS);
}

/**
 * Where an issuer's page sends the consumer back after 3-D Secure: the hosted page's return route for the
 * session (the vault serves it; the orchestrator hands it to processors). The processor appends its own
 * parameters (Adyen redirectResult, Checkout.com cko-session-id).
 */
export function hostedPageReturnUrl(publicBaseUrl: string, sessionId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/checkout/${encodeURIComponent(sessionId)}/return`;
}

/** The hosted page of a checkout session (`action_requirement.checkout_url`): where a merchant sends its consumer. */
export function hostedPageUrl(publicBaseUrl: string, sessionId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/checkout/${encodeURIComponent(sessionId)}`;
}
