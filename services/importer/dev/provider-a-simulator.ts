/**
 * provider_a simulator — dev and test tooling, not production code.
 *
 * A small HTTP server shaped after Stripe's public API (customers list, a customer's payment
 * methods, forwarding requests) serving a deterministic account of N customers × M cards. Its
 * forwarding endpoint does what the platform does: it substitutes the card data into
 * request[body] and really POSTs it to `url`, then answers with a ForwardingRequest object whose
 * request_details are redacted and whose response_details carry the destination's answer.
 *
 * As strict as the platform's documentation: unknown parameters → 400 parameter_unknown; limit
 * outside 1–100 → 400; starting_after or ending_before (not both) naming an unknown object → 400
 * resource_missing; error bodies { error: { type, code, param, message } } with the documented types
 * only (api_error, card_error, idempotency_error, invalid_request_error); forwarding only to the
 * destinations configured for the account (https, unless loopback http is allowed for tests) with
 * the documented replacements; the security code used up by its first forward (and absent for cards
 * stored longer than its lifetime); Idempotency-Key honoured on POST (same key and parameters → the
 * saved answer and no second outbound request; other parameters → 400 idempotency_error; the same
 * key still running → 409 idempotency_key_in_use); metadata kept; 429 with or without Retry-After
 * and Stripe-Should-Retry on demand.
 *
 * Tests start it in their own process with startProviderASimulator (stats, injected failures,
 * pauses). Run alone, in a process of its own (local demo, benchmarks): provider-a-simulator.main.ts,
 * configured at run time through its control routes under /_simulator (CONTROL_PREFIX).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { cardOf, customerId, customerIndexOf, paymentMethodId, paymentMethodIndexOf, type SimulatedCard } from './provider-a-catalogue';

export interface ProviderASimulatorOptions {
  /** The secret key the account accepts (Authorization: Bearer <key>). */
  apiKey: string;
  customers: number;
  cardsPerCustomer: number;
  /** Payment methods whose card number fails the Luhn check (the vault must refuse them). */
  invalidPaymentMethods?: string[];
  /** Payment methods stored longer than the security code's lifetime: their forwards carry no CVC. */
  paymentMethodsWithoutCvc?: string[];
  /** Lower-case letters put into every id, so that two simulated accounts never share ids. */
  accountTag?: string;
  /** The destinations the platform enabled for this account at onboarding (none: forwarding not enabled). */
  forwardingDestinations?: string[];
  /** Lets destinations be plain http on a loopback host (tests and demos on one machine). */
  allowHttpLoopbackDestinations?: boolean;
  port?: number;
}

export interface InjectedFailure {
  status: 429 | 500 | 502 | 503;
  /** How many of the next requests get this answer. */
  count: number;
  /** Sent as Retry-After (seconds). */
  retryAfterSeconds?: number;
  /** Sent as Stripe-Should-Retry. */
  shouldRetry?: boolean;
  /** Only requests whose path starts with this prefix are affected (all when absent). */
  pathPrefix?: string;
  /**
   * The failure comes after the platform executed the request (a forward really went out and its
   * answer was saved under the Idempotency-Key), as when the answer is lost on its way back.
   */
  afterExecution?: boolean;
}

export interface SimulatorStats {
  listRequests: number;
  /** POST /v1/forwarding/requests received, replays included. */
  forwardRequests: number;
  /** Requests the platform really sent to a destination. */
  outboundForwards: number;
  /** Outbound requests per payment-method id. */
  forwardsByPaymentMethod: Map<string, number>;
  /** Outbound requests that carried a security code, per payment-method id. */
  forwardsWithCvc: Map<string, number>;
  /** Answers replayed from a saved Idempotency-Key. */
  idempotentReplays: number;
  /** POSTs that came without an Idempotency-Key. */
  postsWithoutIdempotencyKey: number;
  /** Stripe-Version headers seen, with how many requests each. */
  stripeVersions: Map<string, number>;
  unauthorized: number;
  injected: number;
}

export interface ProviderASimulator {
  baseUrl: string;
  stats: SimulatorStats;
  totalPaymentMethods: number;
  /** The next matching requests answer with an injected error. */
  inject(failure: InjectedFailure): void;
  /** Enables forwarding to this destination for the account (the platform's onboarding). */
  enableForwardingTo(url: string): void;
  /** Holds forwarding requests until `release()` (to stop an import mid-job in tests). */
  pauseForwarding(): void;
  releaseForwarding(): void;
  cardFor(paymentMethod: string): SimulatedCard | null;
  stop(): Promise<void>;
}

/** Routes of the simulator itself (not the platform's): configuration of a simulator running in its own process. */
export const CONTROL_PREFIX = '/_simulator';
export const DOCUMENTED_REPLACEMENTS = ['card_cvc', 'card_expiry', 'card_number', 'cardholder_name', 'request_signature'] as const;
/** The error types the platform documents; no other is ever sent. */
type ErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
interface PlatformError {
  type: ErrorType;
  code?: string;
  param?: string;
  message: string;
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 10;
/** Saved idempotent answers kept (the platform keeps them 24 h; the simulator keeps the newest). */
const MAX_SAVED_ANSWERS = 200_000;
const API_VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'expand'];
const CUSTOMER_LIST_PARAMS = [...LIST_PARAMS, 'email', 'created', 'test_clock'];
const METHOD_LIST_PARAMS = [...LIST_PARAMS, 'type', 'allow_redisplay'];
const FORWARD_PARAM = /^(payment_method|url|request\[body\]|request\[headers\]\[\d+\]\[(name|value)\]|replacements\[\d*\]|metadata\[[^\]]+\]|expand\[\d*\])$/;

interface SavedAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

class PlatformRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: PlatformError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }
}

const invalid = (message: string, extra: Omit<PlatformError, 'type' | 'message'> = {}, status = 400) =>
  new PlatformRefusal(status, { type: 'invalid_request_error', message, ...extra });

export async function startProviderASimulator(options: ProviderASimulatorOptions): Promise<ProviderASimulator> {
  const invalidCards = new Set(options.invalidPaymentMethods ?? []);
  const withoutCvc = new Set(options.paymentMethodsWithoutCvc ?? []);
  const destinations = new Set(options.forwardingDestinations ?? []);
  const stats: SimulatorStats = {
    listRequests: 0,
    forwardRequests: 0,
    outboundForwards: 0,
    forwardsByPaymentMethod: new Map(),
    forwardsWithCvc: new Map(),
    idempotentReplays: 0,
    postsWithoutIdempotencyKey: 0,
    stripeVersions: new Map(),
    unauthorized: 0,
    injected: 0,
  };
  const failures: InjectedFailure[] = [];
  /** Payment methods whose security code a forward has used up. */
  const cvcUsed = new Set<string>();
  const saved = new Map<string, SavedAnswer>();
  const running = new Set<string>();
  let paused: Promise<void> | null = null;
  let release: () => void = () => {};
  const destinationAgent = new Agent({ connections: 64, keepAliveTimeout: 4_000 });
  const created = Math.floor(Date.now() / 1000);
  const tag = options.accountTag ?? '';

  const cardFor = (id: string): SimulatedCard | null => {
    const index = paymentMethodIndexOf(id);
    if (!index || index.customer >= options.customers || index.card >= options.cardsPerCustomer) return null;
    return cardOf(index.customer, index.card, invalidCards.has(id));
  };

  const enableForwardingTo = (url: string) => {
    destinationOf(url, options.allowHttpLoopbackDestinations ?? false); // throws for a URL the platform would not accept
    destinations.add(url);
  };

  const paymentMethodObject = (customer: number, card: number) => {
    const id = paymentMethodId(customer, card, tag);
    const data = cardOf(customer, card, invalidCards.has(id));
    return {
      id,
      object: 'payment_method',
      type: 'card',
      created,
      customer: customerId(customer, tag),
      livemode: false,
      metadata: {},
      allow_redisplay: 'unspecified',
      billing_details: { name: data.name, email: null, phone: null, address: null },
      card: {
        brand: data.brand,
        last4: data.number.slice(-4),
        exp_month: data.exp_month,
        exp_year: data.exp_year,
        funding: 'credit',
        country: 'US',
        fingerprint: `fp${customer}x${card}`,
      },
    };
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(req, res, url);
    const failure = takeFailure(failures, url.pathname, false);
    if (failure) {
      stats.injected += 1;
      return sendFailure(res, failure);
    }
    if (!authorised(req.headers.authorization, options.apiKey)) {
      stats.unauthorized += 1;
      return sendError(res, invalid('Invalid API Key provided: sk_****', {}, 401));
    }
    const version = header(req, 'stripe-version');
    if (version !== undefined) {
      if (!API_VERSION.test(version)) return sendError(res, invalid(`Invalid Stripe API version: ${version.slice(0, 40)}`));
      stats.stripeVersions.set(version, (stats.stripeVersions.get(version) ?? 0) + 1);
    }

    if (req.method === 'GET' && url.pathname === '/v1/customers') {
      stats.listRequests += 1;
      onlyKnown(url.searchParams, CUSTOMER_LIST_PARAMS);
      const page = pageOf(url.searchParams, options.customers, (id) => customerIndexOf(id), 'customer');
      return send(res, 200, {
        object: 'list',
        url: '/v1/customers',
        has_more: page.hasMore,
        data: page.indexes.map((i) => ({
          id: customerId(i, tag),
          object: 'customer',
          created,
          livemode: false,
          name: `Customer ${i}`,
          email: null,
          metadata: {},
        })),
      });
    }

    const customerMethods = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(url.pathname);
    const customerParam = customerMethods
      ? decodeURIComponent(customerMethods[1]!)
      : url.pathname === '/v1/payment_methods'
        ? url.searchParams.get('customer')
        : null;
    if (req.method === 'GET' && customerParam !== null) {
      stats.listRequests += 1;
      onlyKnown(url.searchParams, customerMethods ? METHOD_LIST_PARAMS : [...METHOD_LIST_PARAMS, 'customer']);
      const customer = customerIndexOf(customerParam);
      if (customer === null || customer >= options.customers) {
        throw invalid(`No such customer: '${customerParam}'`, { code: 'resource_missing', ...(customerMethods ? {} : { param: 'customer' }) }, 404);
      }
      const type = url.searchParams.get('type');
      const page =
        type !== null && type !== 'card'
          ? { indexes: [], hasMore: false }
          : pageOf(
              url.searchParams,
              options.cardsPerCustomer,
              (id) => {
                const pm = paymentMethodIndexOf(id);
                return pm && pm.customer === customer ? pm.card : null;
              },
              'payment_method',
            );
      return send(res, 200, {
        object: 'list',
        url: url.pathname,
        has_more: page.hasMore,
        data: page.indexes.map((card) => paymentMethodObject(customer, card)),
      });
    }

    if (req.method === 'POST' && url.pathname === '/v1/forwarding/requests') {
      stats.forwardRequests += 1;
      if (paused) await paused;
      const text = await readBody(req);
      return idempotent(req, res, url.pathname, text, () => forward(new URLSearchParams(text)));
    }

    throw invalid(`Unrecognized request URL (${req.method}: ${url.pathname}).`, {}, 404);
  }

  /** Runs a POST once per Idempotency-Key: the answer of an executed request is saved and replayed. */
  async function idempotent(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    text: string,
    execute: () => Promise<{ status: number; body: unknown }>,
  ): Promise<void> {
    const key = header(req, 'idempotency-key');
    if (key === undefined) stats.postsWithoutIdempotencyKey += 1;
    if (key !== undefined && (key.length === 0 || key.length > 255)) throw invalid('Idempotency-Key must have 1 to 255 characters.');
    const fingerprint = createHash('sha256').update(`${path}\n${text}`).digest('hex');
    if (key !== undefined) {
      const previous = saved.get(key);
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          throw new PlatformRefusal(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key.slice(0, 60)}' if you meant to execute a different request.`,
          });
        }
        stats.idempotentReplays += 1;
        return send(res, previous.status, previous.body, { 'idempotent-replayed': 'true' });
      }
      if (running.has(key)) {
        throw invalid(
          'There is currently another in-progress request using this idempotent key. Please try again later.',
          { code: 'idempotency_key_in_use' },
          409,
        );
      }
      running.add(key);
    }
    try {
      const answer = await execute();
      const afterwards = takeFailure(failures, path, true);
      if (key !== undefined) {
        if (saved.size >= MAX_SAVED_ANSWERS) saved.delete(saved.keys().next().value!);
        saved.set(key, { fingerprint, ...answer });
      }
      if (afterwards) {
        stats.injected += 1;
        return sendFailure(res, afterwards);
      }
      return send(res, answer.status, answer.body);
    } finally {
      if (key !== undefined) running.delete(key);
    }
  }

  async function forward(form: URLSearchParams): Promise<{ status: number; body: unknown }> {
    for (const name of form.keys()) {
      if (!FORWARD_PARAM.test(name)) throw invalid(`Received unknown parameter: ${name}`, { code: 'parameter_unknown', param: name });
    }
    const paymentMethod = required(form, 'payment_method');
    const destination = required(form, 'url');
    const body = form.get('request[body]');
    const replacements = collectArray(form, 'replacements');
    if (replacements.length === 0) throw invalid('Missing required param: replacements.', { code: 'parameter_missing', param: 'replacements' });
    replacements.forEach((replacement, i) => {
      if (!(DOCUMENTED_REPLACEMENTS as readonly string[]).includes(replacement)) {
        throw invalid(`Invalid replacements[${i}]: must be one of ${DOCUMENTED_REPLACEMENTS.join(', ')}`, { param: `replacements[${i}]` });
      }
    });
    const target = destinationOf(destination, options.allowHttpLoopbackDestinations ?? false);
    if (destinations.size === 0) {
      throw invalid('Forwarding is not enabled for this account. Contact support to request access to the Vault and Forward API.', { param: 'url' });
    }
    if (!destinations.has(target)) {
      throw invalid('The url is not a forwarding destination configured for this account. Contact support to add it.', { param: 'url' });
    }
    const card = cardFor(paymentMethod);
    if (!card) throw invalid(`No such PaymentMethod: '${paymentMethod}'`, { code: 'resource_missing', param: 'payment_method' });
    let parsed: unknown;
    try {
      parsed = body === null ? {} : (JSON.parse(body) as unknown);
    } catch {
      throw invalid('request[body] must be JSON.', { param: 'request[body]' });
    }
    // The security code goes out once: later forwards, and cards stored longer than its lifetime, carry none.
    const cvcAvailable = !cvcUsed.has(paymentMethod) && !withoutCvc.has(paymentMethod);
    const sent = { ...card, cvc: cvcAvailable ? card.cvc : '' };
    const sendsCvc = cvcAvailable && replacements.includes('card_cvc');
    if (sendsCvc) cvcUsed.add(paymentMethod);
    const headers = collectHeaders(form);
    stats.outboundForwards += 1;
    stats.forwardsByPaymentMethod.set(paymentMethod, (stats.forwardsByPaymentMethod.get(paymentMethod) ?? 0) + 1);
    if (sendsCvc) stats.forwardsWithCvc.set(paymentMethod, (stats.forwardsWithCvc.get(paymentMethod) ?? 0) + 1);
    const started = Date.now();
    let response: { status: number; body: string; contentType: string };
    try {
      const answer = await request(destination, {
        method: 'POST',
        dispatcher: destinationAgent,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(substitute(parsed, sent, replacements)),
      });
      response = { status: answer.statusCode, body: await answer.body.text(), contentType: String(answer.headers['content-type'] ?? '') };
    } catch {
      return { status: 502, body: { error: { type: 'api_error', message: 'The destination could not be reached.' } } };
    }
    return {
      status: 200,
      body: {
        id: `fwdreq_${randomBytes(12).toString('hex')}`,
        object: 'forwarding.request',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        metadata: metadataOf(form),
        payment_method: paymentMethod,
        replacements,
        url: destination,
        request_context: { destination_duration: Date.now() - started, destination_ip_address: '127.0.0.1' },
        request_details: {
          body: JSON.stringify(substitute(parsed, redactedCard(sent), replacements)),
          headers: Object.keys(headers).map((name) => ({ name, value: '[REDACTED]' })),
          http_method: 'POST',
        },
        response_details: { status: response.status, body: response.body, headers: [{ name: 'Content-Type', value: response.contentType }] },
      },
    };
  }

  /** The simulator's own configuration routes, for a simulator in a process of its own (same API key). */
  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!authorised(req.headers.authorization, options.apiKey)) return sendError(res, invalid('Invalid API Key provided: sk_****', {}, 401));
    const text = await readBody(req);
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (req.method === 'POST' && url.pathname === `${CONTROL_PREFIX}/forwarding_destinations`) {
      enableForwardingTo(String(body.url));
      return send(res, 200, { destinations: [...destinations] });
    }
    if (req.method === 'POST' && url.pathname === `${CONTROL_PREFIX}/failures`) {
      failures.push(body as unknown as InjectedFailure);
      return send(res, 200, { pending: failures.length });
    }
    if (req.method === 'GET' && url.pathname === `${CONTROL_PREFIX}/stats`) {
      return send(res, 200, {
        ...stats,
        forwardsByPaymentMethod: undefined,
        forwardsWithCvc: undefined,
        stripeVersions: Object.fromEntries(stats.stripeVersions),
      });
    }
    throw invalid(`Unrecognized request URL (${req.method}: ${url.pathname}).`, {}, 404);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof PlatformRefusal) return sendError(res, error);
      return send(res, 500, { error: { type: 'api_error', message: 'simulator error' } });
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stats,
    totalPaymentMethods: options.customers * options.cardsPerCustomer,
    inject: (failure) => failures.push({ ...failure }),
    enableForwardingTo,
    pauseForwarding: () => {
      if (!paused) paused = new Promise<void>((resolve) => (release = resolve));
    },
    releaseForwarding: () => {
      paused = null;
      release();
    },
    cardFor,
    stop: async () => {
      paused = null;
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await destinationAgent.close();
    },
  };
}

/** A destination as the platform accepts it: a single static https URL (http only on loopback, when allowed). */
function destinationOf(url: string, allowHttpLoopback: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('Invalid URL: url', { code: 'url_invalid', param: 'url' });
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(allowHttpLoopback && loopback && parsed.protocol === 'http:')) {
    throw invalid('The url must use https.', { code: 'url_invalid', param: 'url' });
  }
  return url;
}

function takeFailure(failures: InjectedFailure[], path: string, afterExecution: boolean): InjectedFailure | null {
  const failure = failures.find((f) => f.count > 0 && (f.afterExecution ?? false) === afterExecution && (!f.pathPrefix || path.startsWith(f.pathPrefix)));
  if (!failure) return null;
  failure.count -= 1;
  if (failure.count === 0) failures.splice(failures.indexOf(failure), 1);
  return failure;
}

function sendFailure(res: ServerResponse, failure: InjectedFailure): void {
  const headers: Record<string, string> = {};
  if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
  if (failure.shouldRetry !== undefined) headers['stripe-should-retry'] = String(failure.shouldRetry);
  const error: PlatformError =
    failure.status === 429
      ? { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' }
      : { type: 'api_error', message: 'Something went wrong on the platform.' };
  return sendError(res, new PlatformRefusal(failure.status, error, headers));
}

function authorised(header: string | undefined, apiKey: string): boolean {
  if (!header) return false;
  const [scheme, value] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return value === apiKey;
  if (scheme?.toLowerCase() === 'basic' && value) return Buffer.from(value, 'base64').toString('utf8').split(':')[0] === apiKey;
  return false;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === '') throw invalid(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
  return value;
}

/** Query parameters other than `known` (or their bracketed forms, e.g. created[gt], expand[]) → 400 parameter_unknown. */
function onlyKnown(query: URLSearchParams, known: string[]): void {
  for (const name of query.keys()) {
    if (!known.includes(name.replace(/\[.*$/, ''))) throw invalid(`Received unknown parameter: ${name}`, { code: 'parameter_unknown', param: name });
  }
}

/**
 * Cursor pagination over indexes 0..size-1, as documented: limit 1–100 (default 10), starting_after
 * or ending_before (one of them) naming an object of the list, else 400 resource_missing.
 */
function pageOf(query: URLSearchParams, size: number, indexOf: (id: string) => number | null, object: string): { indexes: number[]; hasMore: boolean } {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isInteger(limit) || !/^\d+$/.test(rawLimit ?? '10'))
    throw invalid('Invalid integer: limit', { code: 'parameter_invalid_integer', param: 'limit' });
  if (limit < 1 || limit > MAX_LIMIT) throw invalid(`Invalid limit: must be between 1 and ${MAX_LIMIT}.`, { param: 'limit' });
  const after = query.get('starting_after');
  const before = query.get('ending_before');
  if (after !== null && before !== null)
    throw invalid('You may only specify one of these parameters: starting_after, ending_before.', { param: 'ending_before' });
  const cursor = (param: string, id: string): number => {
    const index = indexOf(id);
    if (index === null || index >= size) throw invalid(`No such ${object}: '${id.slice(0, 60)}'`, { code: 'resource_missing', param });
    return index;
  };
  if (before !== null) {
    const end = cursor('ending_before', before);
    const start = Math.max(0, end - limit);
    return { indexes: range(start, end), hasMore: start > 0 };
  }
  const start = after !== null ? cursor('starting_after', after) + 1 : 0;
  const end = Math.min(size, start + limit);
  return { indexes: range(start, end), hasMore: end < size };
}

const range = (start: number, end: number): number[] => Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);

function collectArray(form: URLSearchParams, name: string): string[] {
  const values: string[] = [...form.getAll(`${name}[]`)];
  for (const [key, value] of form) if (new RegExp(`^${name}\\[\\d+\\]$`).test(key)) values.push(value);
  return values;
}

function collectHeaders(form: URLSearchParams): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; form.has(`request[headers][${i}][name]`); i++) {
    headers[form.get(`request[headers][${i}][name]`)!] = form.get(`request[headers][${i}][value]`) ?? '';
  }
  return headers;
}

function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = /^metadata\[([^\]]+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

/** Fills card.number / exp_month / exp_year / cvc / name of the JSON body, as the platform's replacements do. */
function substitute(
  body: unknown,
  card: { number: string; exp_month: string | number; exp_year: string | number; cvc: string; name: string },
  replacements: string[],
): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const copy = { ...(body as Record<string, unknown>) };
  const target = typeof copy.card === 'object' && copy.card !== null ? { ...(copy.card as Record<string, unknown>) } : {};
  if (replacements.includes('card_number')) target.number = card.number;
  if (replacements.includes('card_expiry')) {
    target.exp_month = String(card.exp_month).padStart(2, '0');
    target.exp_year = String(card.exp_year);
  }
  if (replacements.includes('card_cvc')) target.cvc = card.cvc;
  if (replacements.includes('cardholder_name')) target.name = card.name;
  copy.card = target;
  return copy;
}

function redactedCard(card: SimulatedCard) {
  return { ...card, number: `${card.number.slice(0, 6)}${'*'.repeat(card.number.length - 10)}${card.number.slice(-4)}`, cvc: card.cvc ? '***' : '' };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, refusal: PlatformRefusal): void {
  send(res, refusal.status, { error: refusal.error }, refusal.headers);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': `req_${randomBytes(8).toString('hex')}`,
    ...headers,
  });
  res.end(text);
}
