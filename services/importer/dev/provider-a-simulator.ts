/**
 * provider_a simulator — dev and test tooling, not production code.
 *
 * A small HTTP server shaped after Stripe's public API (customers list, a customer's payment
 * methods, forwarding requests) serving a deterministic account of N customers × M cards. Its
 * forwarding endpoint does what the platform does: it substitutes the card data into
 * request[body] and really POSTs it to `url`, then answers with a ForwardingRequest object whose
 * request_details are redacted and whose response_details carry the destination's answer.
 *
 * Tests start it in their own process with startProviderASimulator (stats, injected failures,
 * pauses). Run alone, in a process of its own (local demo, benchmarks): provider-a-simulator.main.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { cardOf, customerId, customerIndexOf, paymentMethodId, paymentMethodIndexOf, type SimulatedCard } from './provider-a-catalogue';

export interface ProviderASimulatorOptions {
  /** The secret key the account accepts (Authorization: Bearer <key>). */
  apiKey: string;
  customers: number;
  cardsPerCustomer: number;
  /** Payment methods whose card number fails the Luhn check (the vault must refuse them). */
  invalidPaymentMethods?: string[];
  /** Lower-case letters put into every id, so that two simulated accounts never share ids. */
  accountTag?: string;
  port?: number;
}

export interface InjectedFailure {
  status: 429 | 500 | 502 | 503;
  /** How many of the next requests get this answer. */
  count: number;
  /** Sent as Retry-After (seconds) with a 429. */
  retryAfterSeconds?: number;
  /** Only requests whose path starts with this prefix are affected (all when absent). */
  pathPrefix?: string;
}

export interface SimulatorStats {
  listRequests: number;
  forwardRequests: number;
  /** Forwarding requests per payment-method id. */
  forwardsByPaymentMethod: Map<string, number>;
  unauthorized: number;
  injected: number;
}

export interface ProviderASimulator {
  baseUrl: string;
  stats: SimulatorStats;
  totalPaymentMethods: number;
  /** The next matching requests answer with an injected error. */
  inject(failure: InjectedFailure): void;
  /** Holds forwarding requests until `release()` (to stop an import mid-job in tests). */
  pauseForwarding(): void;
  releaseForwarding(): void;
  cardFor(paymentMethod: string): SimulatedCard | null;
  stop(): Promise<void>;
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 10;

export async function startProviderASimulator(options: ProviderASimulatorOptions): Promise<ProviderASimulator> {
  const invalid = new Set(options.invalidPaymentMethods ?? []);
  const stats: SimulatorStats = { listRequests: 0, forwardRequests: 0, forwardsByPaymentMethod: new Map(), unauthorized: 0, injected: 0 };
  const failures: InjectedFailure[] = [];
  let paused: Promise<void> | null = null;
  let release: () => void = () => {};
  const destinationAgent = new Agent({ connections: 64, keepAliveTimeout: 4_000 });
  const created = Math.floor(Date.now() / 1000);
  const tag = options.accountTag ?? '';

  const cardFor = (id: string): SimulatedCard | null => {
    const index = paymentMethodIndexOf(id);
    if (!index || index.customer >= options.customers || index.card >= options.cardsPerCustomer) return null;
    return cardOf(index.customer, index.card, invalid.has(id));
  };

  const paymentMethodObject = (customer: number, card: number) => {
    const id = paymentMethodId(customer, card, tag);
    const data = cardOf(customer, card, invalid.has(id));
    return {
      id,
      object: 'payment_method',
      type: 'card',
      created,
      customer: customerId(customer, tag),
      livemode: false,
      metadata: {},
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
    const failure = takeFailure(failures, url.pathname);
    if (failure) {
      stats.injected += 1;
      const headers: Record<string, string> = failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
      const type = failure.status === 429 ? 'rate_limit_error' : 'api_error';
      return send(res, failure.status, { error: { type, message: failure.status === 429 ? 'Too many requests.' : 'Something went wrong.' } }, headers);
    }
    if (!authorised(req.headers.authorization, options.apiKey)) {
      stats.unauthorized += 1;
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_****' },
      });
    }

    if (req.method === 'GET' && url.pathname === '/v1/customers') {
      stats.listRequests += 1;
      const page = pageOf(url, options.customers, (id) => customerIndexOf(id));
      return send(res, 200, {
        object: 'list',
        url: '/v1/customers',
        has_more: page.hasMore,
        data: page.indexes.map((i) => ({ id: customerId(i, tag), object: 'customer', created, livemode: false, name: `Customer ${i}`, email: null, metadata: {} })),
      });
    }

    const customerMethods = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(url.pathname);
    const customerParam = customerMethods ? decodeURIComponent(customerMethods[1]!) : url.pathname === '/v1/payment_methods' ? url.searchParams.get('customer') : null;
    if (req.method === 'GET' && customerParam !== null) {
      stats.listRequests += 1;
      const customer = customerIndexOf(customerParam);
      if (customer === null || customer >= options.customers) {
        return send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${customerParam}'` } });
      }
      const type = url.searchParams.get('type');
      const page =
        type !== null && type !== 'card'
          ? { indexes: [], hasMore: false }
          : pageOf(url, options.cardsPerCustomer, (id) => {
              const pm = paymentMethodIndexOf(id);
              return pm && pm.customer === customer ? pm.card : null;
            });
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
      const form = new URLSearchParams(await readBody(req));
      return forward(form, res);
    }

    return send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` } });
  }

  async function forward(form: URLSearchParams, res: ServerResponse): Promise<void> {
    const paymentMethod = form.get('payment_method') ?? '';
    const destination = form.get('url');
    const body = form.get('request[body]');
    const replacements = collectArray(form, 'replacements');
    const headers = collectHeaders(form);
    if (!destination || body === null || replacements.length === 0) {
      return send(res, 400, { error: { type: 'invalid_request_error', message: 'Missing required param: url, request[body] or replacements.' } });
    }
    const card = cardFor(paymentMethod);
    if (!card) {
      return send(res, 400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${paymentMethod}'` } });
    }
    stats.forwardsByPaymentMethod.set(paymentMethod, (stats.forwardsByPaymentMethod.get(paymentMethod) ?? 0) + 1);
    let outgoing: string;
    try {
      outgoing = JSON.stringify(substitute(JSON.parse(body) as unknown, card, replacements));
    } catch {
      return send(res, 400, { error: { type: 'invalid_request_error', param: 'request[body]', message: 'request[body] must be JSON.' } });
    }
    const started = Date.now();
    let response: { status: number; body: string; contentType: string };
    try {
      const answer = await request(destination, {
        method: 'POST',
        dispatcher: destinationAgent,
        headers: { ...headers, 'content-type': 'application/json' },
        body: outgoing,
      });
      response = { status: answer.statusCode, body: await answer.body.text(), contentType: String(answer.headers['content-type'] ?? '') };
    } catch {
      return send(res, 502, { error: { type: 'api_error', code: 'forwarding_destination_unreachable', message: 'The destination could not be reached.' } });
    }
    return send(res, 200, {
      id: `fwdreq_${randomBytes(12).toString('hex')}`,
      object: 'forwarding.request',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      metadata: {},
      payment_method: paymentMethod,
      replacements,
      url: destination,
      request_context: { destination_duration: Date.now() - started, destination_ip_address: '127.0.0.1' },
      request_details: {
        body: JSON.stringify(substitute(JSON.parse(body) as unknown, redactedCard(card), replacements)),
        headers: Object.keys(headers).map((name) => ({ name, value: '[REDACTED]' })),
        http_method: 'POST',
      },
      response_details: { status: response.status, body: response.body, headers: [{ name: 'Content-Type', value: response.contentType }] },
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: { type: 'api_error', message: 'simulator error' } }));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stats,
    totalPaymentMethods: options.customers * options.cardsPerCustomer,
    inject: (failure) => failures.push({ ...failure }),
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

function takeFailure(failures: InjectedFailure[], path: string): InjectedFailure | null {
  const failure = failures.find((f) => f.count > 0 && (!f.pathPrefix || path.startsWith(f.pathPrefix)));
  if (!failure) return null;
  failure.count -= 1;
  if (failure.count === 0) failures.splice(failures.indexOf(failure), 1);
  return failure;
}

function authorised(header: string | undefined, apiKey: string): boolean {
  if (!header) return false;
  const [scheme, value] = header.split(' ', 2);
  if (scheme?.toLowerCase() === 'bearer') return value === apiKey;
  if (scheme?.toLowerCase() === 'basic' && value) return Buffer.from(value, 'base64').toString('utf8').split(':')[0] === apiKey;
  return false;
}

/** Stripe cursor pagination over indexes 0..size-1: limit (1–100, default 10) and starting_after. */
function pageOf(url: URL, size: number, indexOf: (id: string) => number | null): { indexes: number[]; hasMore: boolean } {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(url.searchParams.get('limit') ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
  const after = url.searchParams.get('starting_after');
  const start = after ? (indexOf(after) ?? size) + 1 : 0;
  const end = Math.min(size, start + limit);
  const indexes: number[] = [];
  for (let i = start; i < end; i++) indexes.push(i);
  return { indexes, hasMore: end < size };
}

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

/** Fills card.number / exp_month / exp_year / cvc / name of the JSON body, as the platform's replacements do. */
function substitute(body: unknown, card: { number: string; exp_month: string | number; exp_year: string | number; cvc: string; name: string }, replacements: string[]): unknown {
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
  return { ...card, number: `${card.number.slice(0, 6)}${'*'.repeat(card.number.length - 10)}${card.number.slice(-4)}`, cvc: '***' };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': `req_${randomBytes(8).toString('hex')}`, ...headers });
  res.end(text);
}
