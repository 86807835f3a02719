import type { IncomingHttpHeaders } from 'node:http';
import type { ForwardBodyFormat } from '../domain/forward';
import { InvalidHeaderError, MissingHeaderError } from '../domain/forward-errors';

/** Headers that are ours (or the platform's) and never reach a destination. */
const NEVER_FORWARDED = new Set([
  'x-api-key',
  'x-service-token',
  'x-destination-url',
  'x-api-key-name',
  'x-api-key-value',
  'x-forward-authorization',
  'authorization', // our internal JWT
  'x-request-id',
  'traceparent',
  'tracestate',
  'baggage',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'via',
  'cookie',
  'host',
  'content-type',
  'content-length',
  'accept-encoding',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-authorization',
]);

/**
 * Credential header names a merchant may not choose: they belong to the transport or to us.
 * Authorization and X-API-Key stay choosable: they are what destinations expect (Stripe, Adyen);
 * the gateway has already removed the merchant's own X-API-Key.
 */
const RESERVED_CREDENTIAL_NAMES = new Set([...NEVER_FORWARDED].filter((name) => name !== 'authorization' && name !== 'x-api-key'));

const PROVIDER_PAIR = /^x-api-key-([a-z0-9]+)-(name|value)$/;
const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

export interface ForwardHeaders {
  tokenId: string;
  destinationUrl: string;
  format: ForwardBodyFormat;
  credentialHeaders: Record<string, string>;
  passThroughHeaders: Record<string, string>;
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function required(headers: IncomingHttpHeaders, display: string): string {
  const value = single(headers, display.toLowerCase())?.trim();
  if (!value) throw new MissingHeaderError(display);
  return value;
}

function formatOf(contentType: string): ForwardBodyFormat {
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  throw new InvalidHeaderError('Content-Type', 'Content-Type must be application/json or application/x-www-form-urlencoded.');
}

function credentialPair(headers: IncomingHttpHeaders, nameHeader: string, valueHeader: string): [string, string] | undefined {
  const name = single(headers, nameHeader.toLowerCase())?.trim();
  const value = single(headers, valueHeader.toLowerCase());
  if (name === undefined && value === undefined) return undefined;
  if (!name) throw new MissingHeaderError(nameHeader.toUpperCase());
  if (value === undefined) throw new MissingHeaderError(valueHeader.toUpperCase());
  if (!HEADER_NAME.test(name) || RESERVED_CREDENTIAL_NAMES.has(name.toLowerCase())) {
    throw new InvalidHeaderError(nameHeader.toUpperCase(), `${nameHeader.toUpperCase()} must name an ordinary header.`);
  }
  if (!HEADER_VALUE.test(value)) throw new InvalidHeaderError(valueHeader.toUpperCase(), `${valueHeader.toUpperCase()} must not contain control characters.`);
  return [name.toLowerCase(), value];
}

/**
 * Reads the forward request's headers (names are case-insensitive: Node lower-cases them).
 * The destination credential comes from X-API-KEY-NAME/-VALUE, any X-API-KEY-<PROVIDER>-NAME/-VALUE
 * pair, or the merchant's Authorization header (the gateway hands it over as X-Forward-Authorization).
 */
export function readForwardHeaders(headers: IncomingHttpHeaders): ForwardHeaders {
  const format = formatOf(required(headers, 'Content-Type'));
  const tokenId = required(headers, 'X-SERVICE-TOKEN');
  if (!TOKEN_ID.test(tokenId)) throw new InvalidHeaderError('X-SERVICE-TOKEN', 'X-SERVICE-TOKEN must be a token id (UUID).');
  const destinationUrl = required(headers, 'X-DESTINATION-URL');

  const credentialHeaders: Record<string, string> = {};
  const pairs: Array<[string, string] | undefined> = [credentialPair(headers, 'X-API-KEY-NAME', 'X-API-KEY-VALUE')];
  const providers = new Set<string>();
  for (const name of Object.keys(headers)) {
    const match = PROVIDER_PAIR.exec(name);
    if (match) providers.add(match[1]!);
  }
  for (const provider of providers) pairs.push(credentialPair(headers, `X-API-KEY-${provider}-NAME`, `X-API-KEY-${provider}-VALUE`));
  for (const pair of pairs) if (pair) credentialHeaders[pair[0]] = pair[1];
  const merchantAuthorization = single(headers, 'x-forward-authorization');
  if (merchantAuthorization !== undefined && credentialHeaders.authorization === undefined) {
    if (!HEADER_VALUE.test(merchantAuthorization)) throw new InvalidHeaderError('Authorization', 'Authorization must not contain control characters.');
    credentialHeaders.authorization = merchantAuthorization;
  }

  const passThroughHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NEVER_FORWARDED.has(name) || PROVIDER_PAIR.test(name) || name.startsWith('x-vaultline-')) continue;
    if (name in credentialHeaders) continue;
    passThroughHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { tokenId, destinationUrl, format, credentialHeaders, passThroughHeaders };
}
