import { isIP } from 'node:net';
import {
  destinationMatches,
  destinationPattern,
  type CardFieldProfile,
  type CardFields,
  type DestinationMode,
  type DestinationPattern,
  type ProcessorDestination,
} from '@vaultline/contracts';
import { profileForPath } from './card-fields';
import { DestinationModeNotAllowedError, DestinationNotAllowedError } from './forward-errors';

/**
 * One allowed destination: scheme, host, port and path compared by the catalog's one matcher
 * (libs/contracts processors/processor-destinations.ts): a host may start with `*-` or `*.` to stand for one
 * merchant-specific DNS label prefix (a processor's live prefix or account prefix); nothing else is a
 * wildcard and paths are never prefixes.
 */
export interface DestinationRule extends DestinationPattern {
  name: string;
  /** The fields that may hold a placeholder, and how quoted expiry placeholders are typed. */
  card: CardFieldProfile;
  mode: DestinationMode;
  /** From FORWARD_EXTRA_DESTINATIONS: private addresses may be reached for this host. */
  operatorListed: boolean;
}

/** The catalog's card-data destinations (from the processors' manifests): their payments endpoints, test and live. */
export function catalogRules(catalog: readonly ProcessorDestination[]): DestinationRule[] {
  return catalog.flatMap((entry) => (entry.card ? [rule(entry.name, entry.url, entry.card, entry.mode)] : []));
}

function rule(name: string, url: string, card: CardFieldProfile, mode: DestinationMode, operatorListed = false): DestinationRule {
  return { name, ...destinationPattern(url), card, mode, operatorListed };
}

/**
 * Parses a destination URL strictly. The URL must already be in canonical form: WHATWG parsing
 * quietly rewrites `127.1`, `0x7f.1`, `%2e%2e`, `/./`, backslashes, upper case and default ports, so
 * any difference between the raw text and its parsed form is refused rather than normalised.
 */
function parseDestination(raw: string): URL {
  if (raw.length > 2048 || /[\s\\]/.test(raw) || hasControlCharacter(raw))
    throw new DestinationNotAllowedError('The destination URL contains characters that are not allowed.');
  const syntax = /^(https?):\/\/([^/?#]*)(\/[^?#]*)(\?[^#]*)?$/.exec(raw);
  if (!syntax) throw new DestinationNotAllowedError('The destination URL must be an absolute http(s) URL with a path and no fragment.');
  const [, , authority, rawPath] = syntax;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationNotAllowedError('The destination URL is not a valid URL.');
  }
  if (url.username !== '' || url.password !== '' || authority!.includes('@'))
    throw new DestinationNotAllowedError('Credentials in the destination URL are not allowed.');
  if (authority !== url.host)
    throw new DestinationNotAllowedError('The destination host must be written in canonical form (lower case, no default port, no numeric tricks).');
  if (url.pathname !== rawPath || /\/\/|\/\.{1,2}(\/|$)|%2e|%2f|%5c/i.test(rawPath!)) {
    throw new DestinationNotAllowedError('The destination path must not contain encoded, doubled or dot segments.');
  }
  if (url.hostname.endsWith('.')) throw new DestinationNotAllowedError('The destination host must not end with a dot.');
  return url;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function isIpHost(hostname: string): boolean {
  return isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
}

/** What an operator may say about a destination it adds (configuration or admin API). */
export interface DestinationOptions {
  /** Its card fields; without them, those of the catalog entry whose path ends its path (none if no path matches). */
  cardFields?: CardFields;
  /** The catalog the card fields are taken from when none are given. */
  catalog?: readonly ProcessorDestination[];
  /** Only API keys of this mode may forward to it; without it, both modes may. */
  mode?: 'test' | 'live';
}

/** Builds a rule from an operator- or admin-given URL, refusing anything parseDestination would refuse. */
export function ruleFromUrl(name: string, raw: string, operatorListed: boolean, options: DestinationOptions = {}): DestinationRule {
  const url = parseDestination(raw.trim());
  if (url.search !== '') throw new DestinationNotAllowedError('An allowed destination is a URL without a query string.');
  if (!operatorListed && isIpHost(url.hostname)) throw new DestinationNotAllowedError('Destinations are host names, not IP addresses.');
  const card = options.cardFields ? { fields: options.cardFields, typing: 'string' as const } : profileForPath(url.pathname, options.catalog ?? []);
  return rule(name, `${url.protocol}//${url.host}${url.pathname}`, card, options.mode ?? 'any', operatorListed);
}

/**
 * Decides whether a merchant may forward to `raw`, against the built-in catalog, the operator's
 * FORWARD_EXTRA_DESTINATIONS and the merchant's own destinations. IP literals are refused unless
 * the operator listed exactly that literal.
 */
export function resolveDestination(raw: string, rules: readonly DestinationRule[]): { url: URL; rule: DestinationRule } {
  const url = parseDestination(raw);
  const found = rules.find((candidate) => destinationMatches(candidate, url));
  if (!found) throw new DestinationNotAllowedError();
  if (isIpHost(url.hostname) && !found.operatorListed) throw new DestinationNotAllowedError('Destinations are host names, not IP addresses.');
  return { url, rule: found };
}

/**
 * Refuses a destination of the other mode than the API key: a test key never reaches a live PSP
 * endpoint, a live key never a test one. A request without a key mode (no merchant key behind it)
 * counts as test mode.
 */
export function assertModeAllowed(destination: DestinationRule, keyMode: 'test' | 'live' | null): void {
  const mode = keyMode ?? 'test';
  if (destination.mode !== 'any' && destination.mode !== mode) throw new DestinationModeNotAllowedError(mode);
}
