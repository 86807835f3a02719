import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { startPspServer, type PspAnswer } from './psp-stand-in-server';

/**
 * A stand-in of Checkout.com's payments API on loopback: `POST /payments`,
 * `POST /payments/{id}/captures`, `…/voids`, `…/refunds` and `GET /payments/{id}/actions`, with its request checks and answer shapes, the Cko-Idempotency-Key
 * honoured, and webhooks (payment_captured, payment_voided, payment_refunded) signed the way Checkout.com signs them: Cko-Signature, the
 * hex HMAC-SHA256 of the raw body with the webhook secret. It decides by the real card number the
 * forwarder filled in.
 */
export const CHECKOUT_TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export interface CheckoutStandInOptions {
  secretKey: string;
  processingChannelId: string;
  webhookSecret: string;
  delayMs?: [number, number];
}

export interface CheckoutWebhook {
  rawBody: string;
  signature: string;
}

export interface CheckoutStandIn {
  baseUrl: string;
  payments: Array<{ id: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** Signed webhooks, in the order Checkout.com would send them, for the test to deliver. */
  webhooks: CheckoutWebhook[];
  /** When set, each webhook is also sent there as Checkout.com sends it (POST, Cko-Signature), not awaited. */
  webhookUrl: string | null;
  /** Voids received (`POST /payments/{id}/voids`). */
  voids: Array<{ paymentId: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** Every action of each payment, newest first, as `GET /payments/{id}/actions` lists them. */
  actions: Map<string, Array<{ id: string; type: string; amount: unknown; approved: boolean; response_code: string; processed_on: string }>>;
  /** Refunds received (`POST /payments/{id}/refunds`), with the action id answered. */
  refunds: Array<{ paymentId: string; actionId: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** The signed payment_approved webhook Checkout.com sends for a payment it approved (by its id). */
  approvedWebhook(paymentId: string): CheckoutWebhook;
  failNext(count: number): void;
  /** The next request is answered after `ms` (later than the caller waits); it is still processed. */
  delayNext(ms: number): void;
  stop(): Promise<void>;
}

const letters = (n: number) => Array.from(randomBytes(n), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

/** A 15-digit scheme transaction id that fails the Luhn check, so no card-number scan takes it for a PAN. */
function schemeId(): string {
  const digits = Array.from(randomBytes(15), (byte) => byte % 10);
  const luhn = (values: number[]) => values.reduceRight((sum, d, i) => sum + ((values.length - 1 - i) % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) % 10 === 0;
  if (luhn(digits)) digits[14] = (digits[14]! + 1) % 10;
  return digits.join('');
}

export function signCheckoutBody(rawBody: string, webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

export function checkoutWebhook(type: string, data: Record<string, unknown>, webhookSecret: string): CheckoutWebhook {
  const rawBody = JSON.stringify({ id: `evt_${letters(26)}`, type, version: '1.0.33', created_on: new Date().toISOString(), data });
  return { rawBody, signature: signCheckoutBody(rawBody, webhookSecret) };
}

export async function startCheckoutStandIn(options: CheckoutStandInOptions): Promise<CheckoutStandIn> {
  const payments: CheckoutStandIn['payments'] = [];
  const webhooks: CheckoutWebhook[] = [];
  const standIn = { webhookUrl: null as string | null };
  const send = (webhook: CheckoutWebhook) => {
    webhooks.push(webhook);
    if (standIn.webhookUrl) void fetch(standIn.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'cko-signature': webhook.signature }, body: webhook.rawBody }).catch(() => undefined);
  };
  const answered = new Map<string, PspAnswer>();
  const voids: CheckoutStandIn['voids'] = [];
  const actions: CheckoutStandIn['actions'] = new Map();
  const act = (paymentId: string, id: string, type: string, amount: unknown, approved: boolean) =>
    actions.set(paymentId, [{ id, type, amount, approved, response_code: approved ? '10000' : '20005', processed_on: new Date().toISOString() }, ...(actions.get(paymentId) ?? [])]);
  const refunds: CheckoutStandIn['refunds'] = [];

  function voidPayment(paymentId: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    voids.push({ paymentId, body, headers });
    const actionId = `act_${letters(26)}`;
    send(checkoutWebhook('payment_voided', { id: paymentId, action_id: actionId, reference: payment.body.reference, amount: payment.body.amount, currency: payment.body.currency, response_code: '10000' }, options.webhookSecret));
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  function refund(paymentId: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    if (body.amount !== undefined && !Number.isInteger(body.amount)) return { status: 422, body: { request_id: letters(12), error_type: 'request_invalid', error_codes: ['amount_invalid'] } };
    const actionId = `act_${letters(26)}`;
    refunds.push({ paymentId, actionId, body, headers });
    const amount = body.amount ?? payment.body.amount;
    send(checkoutWebhook('payment_refunded', { id: paymentId, action_id: actionId, reference: body.reference, amount, currency: payment.body.currency, response_code: '10000' }, options.webhookSecret));
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  function approvedWebhook(paymentId: string): CheckoutWebhook {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    return checkoutWebhook('payment_approved', { id: paymentId, action_id: `act_${letters(26)}`, reference: payment.body.reference, amount: payment.body.amount, currency: payment.body.currency, response_code: '10000' }, options.webhookSecret);
  }

  function pay(body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const source = (body.source ?? {}) as Record<string, unknown>;
    const invalid = (code: string) => ({ status: 422, body: { request_id: letters(12), error_type: 'request_invalid', error_codes: [code] } });
    if (source.type !== 'card' || typeof source.number !== 'string' || !/^\d{12,19}$/.test(source.number)) return invalid('card_number_invalid');
    if (!Number.isInteger(source.expiry_month) || !Number.isInteger(source.expiry_year)) return invalid('card_expiry_month_invalid');
    if (!Number.isInteger(body.amount) || typeof body.currency !== 'string') return invalid('amount_invalid');
    if (body.processing_channel_id !== options.processingChannelId) return invalid('processing_channel_id_invalid');
    if (body.merchant_initiated === true && (typeof body.previous_payment_id !== 'string' || source.cvv !== undefined)) return invalid('previous_payment_id_required');
    const id = `pay_${letters(26)}`;
    payments.push({ id, body, headers });
    const common = { id, action_id: `act_${letters(26)}`, amount: body.amount, currency: body.currency, reference: body.reference, processed_on: new Date().toISOString() };
    const approved = source.number !== CHECKOUT_TEST_CARDS.declined && source.number !== CHECKOUT_TEST_CARDS.insufficientFunds;
    act(id, common.action_id, 'Authorization', body.amount, approved);
    const autoCaptureId = `act_${letters(26)}`;
    if (approved && body.capture === true) act(id, autoCaptureId, 'Capture', body.amount, true);
    if (source.number === CHECKOUT_TEST_CARDS.declined) return { status: 201, body: { ...common, approved: false, status: 'Declined', response_code: '20005', response_summary: 'Declined - Do Not Honour' } };
    if (source.number === CHECKOUT_TEST_CARDS.insufficientFunds) return { status: 201, body: { ...common, approved: false, status: 'Declined', response_code: '20051', response_summary: 'Insufficient Funds' } };
    if (body.capture === true) send(checkoutWebhook('payment_captured', { id, action_id: autoCaptureId, reference: body.reference, amount: body.amount, currency: body.currency, response_code: '10000' }, options.webhookSecret));
    return { status: 201, body: { ...common, approved: true, status: 'Authorized', response_code: '10000', response_summary: 'Approved', scheme_id: schemeId() } };
  }

  function capture(paymentId: string, body: Record<string, unknown>): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    const actionId = `act_${letters(26)}`;
    const amount = Number.isInteger(body.amount) ? body.amount : payment.body.amount;
    act(paymentId, actionId, 'Capture', amount, true);
    send(checkoutWebhook('payment_captured', { id: paymentId, action_id: actionId, reference: payment.body.reference, amount, currency: payment.body.currency, response_code: '10000' }, options.webhookSecret));
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  const server = await startPspServer({ ...(options.delayMs ? { delayMs: options.delayMs } : {}), unavailable: { status: 503, body: undefined } }, (req, raw) => {
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) return { status: 401, body: undefined };
    const key = req.headers['cko-idempotency-key'];
    const scopedKey = typeof key === 'string' ? `${req.url}\u0000${key}` : null;
    const earlier = scopedKey ? answered.get(scopedKey) : undefined;
    if (earlier) return earlier;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw || '{}') as Record<string, unknown>;
    } catch {
      return { status: 422, body: { error_type: 'request_invalid' } };
    }
    const captureMatch = /^\/payments\/(pay_[a-z0-9]+)\/captures$/.exec(req.url ?? '');
    const voidMatch = /^\/payments\/(pay_[a-z0-9]+)\/voids$/.exec(req.url ?? '');
    const actionsMatch = /^\/payments\/(pay_[a-z0-9]+)\/actions$/.exec(req.url ?? '');
    const refundMatch = /^\/payments\/(pay_[a-z0-9]+)\/refunds$/.exec(req.url ?? '');
    let answer: PspAnswer;
    if (req.method === 'POST' && req.url === '/payments') answer = pay(body, req.headers);
    else if (req.method === 'POST' && captureMatch) answer = capture(captureMatch[1]!, body);
    else if (req.method === 'POST' && voidMatch) answer = voidPayment(voidMatch[1]!, body, req.headers);
    else if (req.method === 'GET' && actionsMatch) return actions.has(actionsMatch[1]!) ? { status: 200, body: actions.get(actionsMatch[1]!) } : { status: 404, body: {} };
    else if (req.method === 'POST' && refundMatch) answer = refund(refundMatch[1]!, body, req.headers);
    else answer = { status: 404, body: {} };
    if (scopedKey) answered.set(scopedKey, answer);
    return answer;
  });
  return Object.assign(standIn, server, { payments, webhooks, voids, refunds, actions, approvedWebhook });
}
