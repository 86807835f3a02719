import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * Local stand-ins shaped like the three destinations of the forwarding catalog, each on its own
 * loopback port: Adyen Checkout v69 /v69/payments (JSON, X-API-Key), Checkout.com /payments (JSON,
 * Authorization: Bearer) and Stripe /v1/payment_methods (form-encoded, Authorization: Bearer).
 * Each checks the credential and the fields its real API requires and answers like it would; every
 * request and every TCP connection is recorded so tests can see exactly what left the forwarder.
 */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandIn {
  /** The full destination URL (what FORWARD_EXTRA_DESTINATIONS lists and X-DESTINATION-URL names). */
  url: string;
  origin: string;
  received: ReceivedRequest[];
  connections(): number;
  stop(): Promise<void>;
}

type Answer = { status: number; body: unknown };
type Handler = (request: ReceivedRequest) => Answer;

export const STAND_IN_CREDENTIALS = {
  adyenApiKey: 'AQEyhmfxStandInAdyenKey0001',
  checkoutSecretKey: 'sk_sbox_standin_checkout_0001',
  stripeSecretKey: 'sk_test_standin_stripe_0001',
} as const;

async function startStandIn(path: string, handler: Handler): Promise<StandIn> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const answer: Answer =
        request.method === 'POST' && request.path === path
          ? safely(handler, request)
          : { status: 404, body: { message: `no route ${request.method} ${request.path}` } };
      const text = JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    received,
    connections: () => connections,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function safely(handler: Handler, request: ReceivedRequest): Answer {
  try {
    return handler(request);
  } catch {
    return { status: 400, body: { message: 'unparseable request' } };
  }
}

const header = (request: ReceivedRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};
const isString = (value: unknown, pattern: RegExp): value is string => typeof value === 'string' && pattern.test(value);
const isInteger = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const last4 = (number: string) => number.slice(-4);

/**
 * Adyen Checkout API v69 POST /payments. Card fields are strings (expiryMonth "03", expiryYear
 * "2030"). Like a badly behaved destination, it echoes the full card number in additionalData, so
 * the forwarder's masking of answers can be seen.
 */
export function startAdyenStandIn(): Promise<StandIn> {
  return startStandIn('/v69/payments', (request) => {
    if (header(request, 'x-api-key') !== STAND_IN_CREDENTIALS.adyenApiKey) {
      return { status: 401, body: { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' } };
    }
    if (!header(request, 'content-type')?.startsWith('application/json')) {
      return { status: 415, body: { status: 415, errorCode: '702', message: 'Unsupported content type', errorType: 'validation' } };
    }
    const body = JSON.parse(request.body) as {
      amount?: { currency?: unknown; value?: unknown };
      reference?: unknown;
      merchantAccount?: unknown;
      paymentMethod?: { type?: unknown; number?: unknown; expiryMonth?: unknown; expiryYear?: unknown; cvc?: unknown };
    };
    const pm = body.paymentMethod ?? {};
    const valid =
      isString(body.merchantAccount, /.+/) &&
      isString(body.reference, /.+/) &&
      isString(body.amount?.currency, /^[A-Z]{3}$/) &&
      isInteger(body.amount?.value, 0, 1e12) &&
      pm.type === 'scheme' &&
      isString(pm.number, /^\d{12,19}$/) &&
      isString(pm.expiryMonth, /^(0[1-9]|1[0-2])$/) &&
      isString(pm.expiryYear, /^\d{4}$/) &&
      isString(pm.cvc, /^\d{3,4}$/);
    if (!valid) return { status: 422, body: { status: 422, errorCode: '15_002', message: 'Invalid payment method data', errorType: 'validation' } };
    return {
      status: 200,
      body: {
        pspReference: `PSP${randomBytes(6).toString('hex').toUpperCase()}`,
        resultCode: 'Authorised',
        merchantReference: body.reference,
        amount: body.amount,
        additionalData: { cardSummary: last4(pm.number as string), cardNumber: pm.number, expiryDate: `${String(pm.expiryMonth)}/${String(pm.expiryYear)}` },
      },
    };
  });
}

/** Checkout.com POST /payments: source {type: 'card', number, expiry_month, expiry_year} with integer expiry fields. */
export function startCheckoutStandIn(): Promise<StandIn> {
  return startStandIn('/payments', (request) => {
    if (header(request, 'authorization') !== `Bearer ${STAND_IN_CREDENTIALS.checkoutSecretKey}`) return { status: 401, body: {} };
    const body = JSON.parse(request.body) as {
      amount?: unknown;
      currency?: unknown;
      reference?: unknown;
      source?: { type?: unknown; number?: unknown; expiry_month?: unknown; expiry_year?: unknown; cvv?: unknown };
    };
    const source = body.source ?? {};
    const errors: string[] = [];
    if (source.type !== 'card') errors.push('source_type_invalid');
    if (!isString(source.number, /^\d{12,19}$/)) errors.push('card_number_invalid');
    if (!isInteger(source.expiry_month, 1, 12)) errors.push('card_expiry_month_invalid');
    if (!isInteger(source.expiry_year, 2000, 2100)) errors.push('card_expiry_year_invalid');
    if (source.cvv !== undefined && !isString(source.cvv, /^\d{3,4}$/)) errors.push('cvv_invalid');
    if (!isInteger(body.amount, 0, 1e12) || !isString(body.currency, /^[A-Z]{3}$/)) errors.push('amount_invalid');
    if (errors.length > 0) return { status: 422, body: { request_id: randomBytes(8).toString('hex'), error_type: 'request_invalid', error_codes: errors } };
    return {
      status: 201,
      body: {
        id: `pay_${randomBytes(13).toString('hex')}`,
        action_id: `act_${randomBytes(13).toString('hex')}`,
        amount: body.amount,
        currency: body.currency,
        approved: true,
        status: 'Authorized',
        response_code: '10000',
        response_summary: 'Approved',
        reference: body.reference,
        source: {
          type: 'card',
          expiry_month: source.expiry_month,
          expiry_year: source.expiry_year,
          last4: last4(source.number as string),
          bin: (source.number as string).slice(0, 6),
        },
      },
    };
  });
}

/** Stripe POST /v1/payment_methods: form-encoded type=card, card[number], card[exp_month], card[exp_year], card[cvc]. */
export function startStripeStandIn(): Promise<StandIn> {
  return startStandIn('/v1/payment_methods', (request) => {
    if (header(request, 'authorization') !== `Bearer ${STAND_IN_CREDENTIALS.stripeSecretKey}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } } };
    }
    if (header(request, 'content-type') !== 'application/x-www-form-urlencoded') {
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', message: 'Invalid request (check that your POST content type is application/x-www-form-urlencoded).' },
        },
      };
    }
    const form = new URLSearchParams(request.body);
    const number = form.get('card[number]');
    const month = Number(form.get('card[exp_month]'));
    const year = Number(form.get('card[exp_year]'));
    const cvc = form.get('card[cvc]');
    const missing =
      form.get('type') !== 'card'
        ? 'type'
        : !isString(number, /^\d{12,19}$/)
          ? 'card[number]'
          : !isInteger(month, 1, 12)
            ? 'card[exp_month]'
            : !isInteger(year, 2000, 2100)
              ? 'card[exp_year]'
              : cvc !== null && !isString(cvc, /^\d{3,4}$/)
                ? 'card[cvc]'
                : null;
    if (missing) return { status: 400, body: { error: { type: 'invalid_request_error', param: missing, message: `Invalid ${missing}` } } };
    return {
      status: 200,
      body: {
        id: `pm_${randomBytes(12).toString('hex')}`,
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: last4(number!), exp_month: month, exp_year: year, checks: { cvc_check: cvc ? 'unchecked' : null } },
        livemode: false,
      },
    };
  });
}

/** A server no rule allows: any connection to it would mean the forwarder reached a refused destination. */
export function startRefusedDestination(): Promise<StandIn> {
  return startStandIn('/v69/payments', () => ({ status: 200, body: { resultCode: 'Authorised' } }));
}

export interface DestinationStandIns {
  adyen: StandIn;
  checkout: StandIn;
  stripe: StandIn;
  refused: StandIn;
  /** The forwarder's settings that let it reach the three allowed stand-ins (and only them). */
  forwarderEnv: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDestinationStandIns(): Promise<DestinationStandIns> {
  const [adyen, checkout, stripe, refused] = await Promise.all([startAdyenStandIn(), startCheckoutStandIn(), startStripeStandIn(), startRefusedDestination()]);
  return {
    adyen,
    checkout,
    stripe,
    refused,
    forwarderEnv: { FORWARD_EXTRA_DESTINATIONS: [adyen.url, checkout.url, stripe.url].join(','), FORWARD_HTTPS_ONLY: 'false' },
    stop: async () => {
      await Promise.all([adyen, checkout, stripe, refused].map((standIn) => standIn.stop()));
    },
  };
}
