import generated from './processor-manifests.generated.json';
import { processorManifest, type CardFieldProfile, type DestinationMode, type DestinationPurpose, type ProcessorManifest } from './processor-manifest';

/**
 * The processors' destinations, in one catalog built from their manifests (processor-manifest.ts): every
 * URL a processor call may go to, per processor, purpose and key mode, and the card fields the card-data
 * ones take. The forwarder allows the card-data entries (its built-in allowlist, POST /forward and the
 * orchestrator's payments alike); the payment orchestrator's plugins take their entries from their own
 * manifest (which hosts serve which mode, which payments URL an account's base URL must end in). One
 * matcher below decides for both.
 *
 * A pattern is an absolute URL compared part by part: scheme, host, port and path exactly, except that
 * a host may start with `*-` or `*.` (one merchant-specific DNS label: a live prefix, an account prefix)
 * and a path segment written `{name}` stands for one id segment (letters, digits, `_`, `-`). Nothing else
 * is a wildcard, and paths are never prefixes.
 */

export interface ProcessorDestination {
  /** Stable name (the forwarder's rule name). */
  name: string;
  /** The processor's id. */
  processor: string;
  purpose: DestinationPurpose;
  mode: DestinationMode;
  /** The pattern (see above). */
  url: string;
  /** The card fields it takes; null: no card data ever goes there. */
  card: CardFieldProfile | null;
}

/** The manifests of the processors this installation has (the copy of their folders' manifest.json). */
export const PROCESSOR_MANIFESTS: readonly ProcessorManifest[] = generated.manifests.map(processorManifest);

/**
 * One processor's destinations: each host with each path of its API, named after the host (`<host>` for
 * the payments path, `<host>-<purpose>[-<n>]` for the others).
 */
export function destinationsOfManifest(manifest: ProcessorManifest): ProcessorDestination[] {
  return manifest.hosts.flatMap((host) =>
    (Object.entries(manifest.apis[host.api] ?? {}) as Array<[DestinationPurpose, string[]]>).flatMap(([purpose, paths]) =>
      paths.map((path, i) => ({
        name: `${host.name}${purpose === 'payments' ? '' : `-${purpose}${i > 0 ? `-${i}` : ''}`}`,
        processor: manifest.id,
        purpose,
        mode: host.mode,
        url: `${host.base_url}${path}`,
        card: manifest.card_fields[purpose] ?? null,
      })),
    ),
  );
}

/** The catalog of the given processors (by default, the installation's). */
export function destinationCatalog(manifests: readonly ProcessorManifest[] = PROCESSOR_MANIFESTS): ProcessorDestination[] {
  return manifests.flatMap(destinationsOfManifest);
}

/** The installation's catalog. */
export const PROCESSOR_DESTINATIONS: readonly ProcessorDestination[] = destinationCatalog();

/** The headers (lower case) the processors' card-data requests may carry through the forwarder: each manifest's forwarded_headers. */
export function forwardedHeadersOf(manifests: readonly ProcessorManifest[] = PROCESSOR_MANIFESTS): string[] {
  return [...new Set(manifests.flatMap((manifest) => manifest.forwarded_headers))];
}

// --- The one matcher ---

/** A pattern (or an allowed URL) taken apart: compared part by part. */
export interface DestinationPattern {
  protocol: 'https:' | 'http:';
  /** Lower case; may start with `*-` or `*.`. */
  host: string;
  /** '' for the scheme's default port. */
  port: string;
  /** May hold `{name}` segments. */
  path: string;
}

/** Takes a pattern apart; throws on anything that is not an absolute http(s) URL with a path and nothing after it. */
export function destinationPattern(url: string): DestinationPattern {
  const match = /^(https?:)\/\/([^/:?#]+)(?::(\d+))?(\/[^?#]*)$/.exec(url);
  if (!match) throw new Error(`invalid destination pattern ${url}`);
  const [, protocol, host, port, path] = match;
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return { protocol: protocol as 'https:' | 'http:', host: host!.toLowerCase(), port: port === undefined || port === defaultPort ? '' : port, path: path! };
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ID_SEGMENT = /^[A-Za-z0-9_-]+$/;

/** A host against a host pattern: exact, or one DNS label in place of a leading `*`. */
export function hostMatches(pattern: string, hostname: string): boolean {
  if (!pattern.startsWith('*')) return pattern === hostname;
  const suffix = pattern.slice(1); // "-checkout-live.adyenpayments.com" or ".api.checkout.com"
  if (!hostname.endsWith(suffix)) return false;
  return DNS_LABEL.test(hostname.slice(0, hostname.length - suffix.length));
}

/** A path against a path pattern: segment by segment, `{name}` standing for one id segment. */
export function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('{')) return pattern === path;
  const expected = pattern.split('/');
  const actual = path.split('/');
  return (
    expected.length === actual.length &&
    expected.every((segment, i) => (/^\{[A-Za-z_]+\}$/.test(segment) ? ID_SEGMENT.test(actual[i]!) : segment === actual[i]))
  );
}

/** Whether a parsed URL is one the pattern allows. The caller parses strictly first (the forwarder's parseDestination). */
export function destinationMatches(pattern: DestinationPattern, url: Pick<URL, 'protocol' | 'hostname' | 'port' | 'pathname'>): boolean {
  return pattern.protocol === url.protocol && hostMatches(pattern.host, url.hostname) && pattern.port === url.port && pathMatches(pattern.path, url.pathname);
}

/** The same for a URL as text (no query, no fragment: those never match). */
export function urlMatchesDestination(pattern: string, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.search !== '' || parsed.hash !== '' || parsed.href !== url) return false;
  return destinationMatches(destinationPattern(pattern), parsed);
}

/**
 * The card fields of the card-data entry whose path ends `path` (whole segments; the longest wins, so
 * `/stand-in/v69/payments` takes the entry of `/v69/payments`, not of `/payments`), for a destination an operator
 * added without fields of its own; null when no path matches.
 */
export function cardFieldsForPath(path: string, catalog: readonly ProcessorDestination[] = PROCESSOR_DESTINATIONS): CardFieldProfile | null {
  let best: ProcessorDestination | undefined;
  let bestPath = '';
  for (const entry of catalog.filter((candidate) => candidate.card !== null)) {
    const entryPath = destinationPattern(entry.url).path;
    if (path.endsWith(entryPath) && entryPath.length > bestPath.length) {
      best = entry;
      bestPath = entryPath;
    }
  }
  return best?.card ?? null;
}
