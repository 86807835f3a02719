/**
 * The processors' destinations, in one catalog: every URL a processor call may go to, per processor,
 * purpose and key mode, and the card fields the card-data ones take. The forwarder allows the card-data
 * entries (its built-in allowlist, POST /forward and the orchestrator's payments alike); the payment
 * orchestrator's plugins take their entries from here (which hosts serve which mode, which payments URL an
 * account's base URL must end in). One matcher below decides for both.
 *
 * A pattern is an absolute URL compared part by part: scheme, host, port and path exactly, except that
 * a host may start with `*-` or `*.` (one merchant-specific DNS label: Adyen's live prefix, Checkout.com's
 * account prefix) and a path segment written `{name}` stands for one id segment (letters, digits, `_`,
 * `-`). Nothing else is a wildcard, and paths are never prefixes.
 */

/** The forwarder's placeholders a card field may hold (`{{ account_number }}` …). */
export type CardPlaceholder = 'account_number' | 'expiration_month' | 'expiration_year' | 'security_code';

/**
 * The card fields of a destination: each field that may hold card data and the one placeholder it takes.
 * A JSON field is a path of object keys joined by dots (`paymentMethod.number`); a form field is the field
 * name (`card[number]`).
 */
export type CardFields = Readonly<Record<string, CardPlaceholder>>;

/** How a quoted placeholder that is a whole JSON string value is typed: as text, or expiry fields as integers. */
export type WholeValueTyping = 'string' | 'integer-expiry';

export interface CardFieldProfile {
  fields: CardFields;
  typing: WholeValueTyping;
}

/** Which API keys a destination serves: a processor's test host, its live one, or both (one host, the key decides). */
export type DestinationMode = 'test' | 'live' | 'any';

/** What a destination is for: the authorization (card data), the after-sale calls, status reads, answering disputes and uploading their evidence files. */
export type DestinationPurpose = 'payments' | 'captures' | 'refunds' | 'voids' | 'details' | 'payment_methods' | 'disputes' | 'files';

export interface ProcessorDestination {
  /** Stable name (the forwarder's rule name). */
  name: string;
  /** The processor plugin's id. */
  processor: string;
  purpose: DestinationPurpose;
  mode: DestinationMode;
  /** The pattern (see above). */
  url: string;
  /** The card fields it takes; null: no card data ever goes there. */
  card: CardFieldProfile | null;
}

/** Adyen Checkout API v69 /payments: paymentMethod of type scheme (holderName is not card data we fill). */
export const ADYEN_V69_PAYMENTS: CardFieldProfile = {
  fields: { 'paymentMethod.number': 'account_number', 'paymentMethod.expiryMonth': 'expiration_month', 'paymentMethod.expiryYear': 'expiration_year', 'paymentMethod.cvc': 'security_code' },
  typing: 'string',
};

/** Checkout.com /payments with a card source; it wants integer expiry fields. */
export const CHECKOUT_PAYMENTS: CardFieldProfile = {
  fields: { 'source.number': 'account_number', 'source.expiry_month': 'expiration_month', 'source.expiry_year': 'expiration_year', 'source.cvv': 'security_code' },
  typing: 'integer-expiry',
};

/** Stripe payment-method creation, form-encoded. */
export const STRIPE_PAYMENT_METHODS: CardFieldProfile = {
  fields: { 'card[number]': 'account_number', 'card[exp_month]': 'expiration_month', 'card[exp_year]': 'expiration_year', 'card[cvc]': 'security_code' },
  typing: 'string',
};

/** Stripe PaymentIntents with the card inline (raw card data access), form-encoded. */
export const STRIPE_PAYMENT_INTENTS: CardFieldProfile = {
  fields: {
    'payment_method_data[card][number]': 'account_number',
    'payment_method_data[card][exp_month]': 'expiration_month',
    'payment_method_data[card][exp_year]': 'expiration_year',
    'payment_method_data[card][cvc]': 'security_code',
  },
  typing: 'string',
};

function processorEntries(processor: string, mode: DestinationMode, base: string, paths: Partial<Record<DestinationPurpose, string[]>>, card: Partial<Record<DestinationPurpose, CardFieldProfile>>, name: string): ProcessorDestination[] {
  return (Object.entries(paths) as Array<[DestinationPurpose, string[]]>).flatMap(([purpose, list]) =>
    list.map((path, i) => ({ name: `${name}${purpose === 'payments' ? '' : `-${purpose}${i > 0 ? `-${i}` : ''}`}`, processor, purpose, mode, url: `${base}${path}`, card: card[purpose] ?? null })),
  );
}

const ADYEN_PATHS = {
  payments: ['/v69/payments'],
  captures: ['/v69/payments/{paymentPspReference}/captures'],
  refunds: ['/v69/payments/{paymentPspReference}/refunds'],
  voids: ['/v69/payments/{paymentPspReference}/cancels'],
  details: ['/v69/payments/details'],
};

const CHECKOUT_PATHS = {
  payments: ['/payments'],
  captures: ['/payments/{id}/captures'],
  refunds: ['/payments/{id}/refunds'],
  voids: ['/payments/{id}/voids'],
  details: ['/payments/{id}', '/payments/{id}/actions'],
  disputes: ['/disputes/{id}/accept', '/disputes/{id}/evidence'],
};

/** Adyen's Disputes API (DisputeService-v30.json: acceptDispute, supplyDefenseDocument, defendDispute …), on its own hosts. */
const ADYEN_DISPUTE_PATHS = { disputes: ['/ca/services/DisputeService/v30/{operation}'] };
/** Checkout.com's file uploads (dispute evidence) have a host of their own. */
const CHECKOUT_FILE_PATHS = { files: ['/files'] };

const STRIPE_PATHS = {
  payments: ['/v1/payment_intents'],
  captures: ['/v1/payment_intents/{intent}/capture'],
  refunds: ['/v1/refunds'],
  voids: ['/v1/payment_intents/{intent}/cancel'],
  details: ['/v1/payment_intents/{intent}', '/v1/refunds/{refund}'],
  payment_methods: ['/v1/payment_methods'],
  disputes: ['/v1/disputes/{dispute}', '/v1/disputes/{dispute}/close'],
};

/**
 * The catalog. Stripe serves test and live mode on one host and path (the secret key decides), so its
 * entries are open to both modes.
 */
export const PROCESSOR_DESTINATIONS: readonly ProcessorDestination[] = [
  ...processorEntries('adyen', 'test', 'https://checkout-test.adyen.com', ADYEN_PATHS, { payments: ADYEN_V69_PAYMENTS }, 'adyen-v69-test'),
  ...processorEntries('adyen', 'live', 'https://*-checkout-live.adyenpayments.com/checkout', ADYEN_PATHS, { payments: ADYEN_V69_PAYMENTS }, 'adyen-v69-live'),
  ...processorEntries('checkout', 'test', 'https://api.sandbox.checkout.com', CHECKOUT_PATHS, { payments: CHECKOUT_PAYMENTS }, 'checkout-sandbox'),
  ...processorEntries('checkout', 'test', 'https://*.api.sandbox.checkout.com', CHECKOUT_PATHS, { payments: CHECKOUT_PAYMENTS }, 'checkout-sandbox-prefixed'),
  ...processorEntries('checkout', 'live', 'https://api.checkout.com', CHECKOUT_PATHS, { payments: CHECKOUT_PAYMENTS }, 'checkout-live'),
  ...processorEntries('checkout', 'live', 'https://*.api.checkout.com', CHECKOUT_PATHS, { payments: CHECKOUT_PAYMENTS }, 'checkout-live-prefixed'),
  ...processorEntries('stripe', 'any', 'https://api.stripe.com', STRIPE_PATHS, { payments: STRIPE_PAYMENT_INTENTS, payment_methods: STRIPE_PAYMENT_METHODS }, 'stripe-payment-intents'),
  ...processorEntries('adyen', 'test', 'https://ca-test.adyen.com', ADYEN_DISPUTE_PATHS, {}, 'adyen-disputes-test'),
  ...processorEntries('adyen', 'live', 'https://ca-live.adyen.com', ADYEN_DISPUTE_PATHS, {}, 'adyen-disputes-live'),
  ...processorEntries('checkout', 'test', 'https://files.sandbox.checkout.com', CHECKOUT_FILE_PATHS, {}, 'checkout-files-sandbox'),
  ...processorEntries('checkout', 'live', 'https://files.checkout.com', CHECKOUT_FILE_PATHS, {}, 'checkout-files-live'),
  // Stripe's file uploads (dispute evidence): https://files.stripe.com/v1/files, one host for both modes.
  ...processorEntries('stripe', 'any', 'https://files.stripe.com', { files: ['/v1/files'] }, {}, 'stripe-files'),
];

/** One processor's entries. */
export function destinationsOf(processor: string): ProcessorDestination[] {
  return PROCESSOR_DESTINATIONS.filter((entry) => entry.processor === processor);
}

/** The entries card data may go to (the forwarder's built-in allowlist). */
export function cardDataDestinations(): ProcessorDestination[] {
  return PROCESSOR_DESTINATIONS.filter((entry) => entry.card !== null);
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
  return expected.length === actual.length && expected.every((segment, i) => (/^\{[A-Za-z_]+\}$/.test(segment) ? ID_SEGMENT.test(actual[i]!) : segment === actual[i]));
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
 * `/adyen/v69/payments` is Adyen's and `/acme/payments` Checkout.com's), for a destination an operator
 * added without fields of its own; null when no path matches.
 */
export function cardFieldsForPath(path: string): CardFieldProfile | null {
  let best: ProcessorDestination | undefined;
  let bestPath = '';
  for (const entry of cardDataDestinations()) {
    const entryPath = destinationPattern(entry.url).path;
    if (path.endsWith(entryPath) && entryPath.length > bestPath.length) {
      best = entry;
      bestPath = entryPath;
    }
  }
  return best?.card ?? null;
}
