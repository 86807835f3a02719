import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in of Adyen's Checkout API v69 on loopback: `POST /v69/payments` and
 * `POST /v69/payments/{pspReference}/captures`, with Adyen's request checks and answer shapes, the
 * Idempotency-Key honoured (the same key gets the same answer, nothing charged twice), and standard
 * notifications for captures signed the way Adyen signs them (HMAC-SHA256 with the hex-decoded key over
 * the eight documented fields, base64, in additionalData.hmacSignature). It decides by the real card
 * number the forwarder filled in, so it sees what a processor would.
 */
export const ADYEN_TEST_CARDS = {
  approved: '4111111111111111',
  refused: '4000000000000002',
  notEnoughBalance: '4000000000009995',
} as const;

export interface AdyenStandInOptions {
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  /** Answer after a delay drawn from [min, max] ms, like a real PSP (0, 0: at once). */
  delayMs?: [number, number];
}

export interface AdyenPaymentRecord {
  pspReference: string;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export interface AdyenNotificationItem {
  additionalData: Record<string, string>;
  amount: { value: number; currency: string };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  pspReference: string;
  reason: string;
  success: 'true' | 'false';
}

export interface AdyenStandIn {
  /** The base URL (an account's settings.base_url); payments go to `${baseUrl}/v69/payments`. */
  baseUrl: string;
  payments: AdyenPaymentRecord[];
  /** Signed CAPTURE notifications, one per capture accepted, for the test to deliver. */
  notifications: Array<{ live: 'false'; notificationItems: Array<{ NotificationRequestItem: AdyenNotificationItem }> }>;
  /** The next `count` requests answer 503 (a PSP outage). */
  failNext(count: number): void;
  stop(): Promise<void>;
}

/** Letters only: a reference with a long digit run could pass a card-number scan. */
const reference = () => Array.from(randomBytes(16), (byte) => String.fromCharCode(65 + (byte % 26))).join('');

export function signAdyenNotificationItem(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKeyHex: string): string {
  const fields = [item.pspReference, item.originalReference ?? '', item.merchantAccountCode, item.merchantReference, String(item.amount.value), item.amount.currency, item.eventCode, item.success];
  return createHmac('sha256', Buffer.from(hmacKeyHex, 'hex')).update(fields.join(':'), 'utf8').digest('base64');
}

export function adyenNotification(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKeyHex: string) {
  return { live: 'false' as const, notificationItems: [{ NotificationRequestItem: { ...item, additionalData: { hmacSignature: signAdyenNotificationItem(item, hmacKeyHex) } } }] };
}

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

function validationError(res: ServerResponse, message: string): void {
  res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 422, errorCode: '702', message, errorType: 'validation' }));
}

export async function startAdyenStandIn(options: AdyenStandInOptions): Promise<AdyenStandIn> {
  const payments: AdyenPaymentRecord[] = [];
  const notifications: AdyenStandIn['notifications'] = [];
  const answered = new Map<string, { status: number; body: unknown }>();
  let failures = 0;
  const [minDelay, maxDelay] = options.delayMs ?? [0, 0];

  function authorise(body: Record<string, unknown>, headers: IncomingMessage['headers']): { status: number; body: unknown } | string {
    const pm = (body.paymentMethod ?? {}) as Record<string, unknown>;
    const amount = (body.amount ?? {}) as Record<string, unknown>;
    const additionalData = (body.additionalData ?? {}) as Record<string, unknown>;
    if (body.merchantAccount !== options.merchantAccount) return 'merchantAccount';
    if (!Number.isInteger(amount.value) || typeof amount.currency !== 'string') return 'amount';
    if (typeof body.reference !== 'string' || body.reference === '') return 'reference';
    if (pm.type !== 'scheme' || typeof pm.number !== 'string' || !/^\d{12,19}$/.test(pm.number)) return 'paymentMethod.number';
    if (!/^\d{2}$/.test(String(pm.expiryMonth)) || !/^\d{4}$/.test(String(pm.expiryYear))) return 'paymentMethod.expiry';
    const contAuth = body.shopperInteraction === 'ContAuth';
    if (contAuth && (typeof additionalData.networkTxReference !== 'string' || pm.cvc !== undefined)) return 'ContAuth needs additionalData.networkTxReference and no cvc';
    if (!contAuth && body.shopperInteraction !== 'Ecommerce') return 'shopperInteraction';
    const pspReference = reference();
    payments.push({ pspReference, body, headers });
    const merchantReference = body.reference;
    if (pm.number === ADYEN_TEST_CARDS.refused) return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: 'Refused', refusalReasonCode: '2', merchantReference } };
    if (pm.number === ADYEN_TEST_CARDS.notEnoughBalance) return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: 'Not enough balance', refusalReasonCode: '12', merchantReference } };
    const networkTxReference = contAuth ? String(additionalData.networkTxReference) : `NTR${reference()}`;
    return { status: 200, body: { pspReference, resultCode: 'Authorised', merchantReference, amount, additionalData: { networkTxReference } } };
  }

  function capture(paymentPsp: string, body: Record<string, unknown>): { status: number; body: unknown } | string {
    const payment = payments.find((p) => p.pspReference === paymentPsp);
    const amount = (body.amount ?? {}) as { value?: unknown; currency?: unknown };
    if (!payment) return 'unknown pspReference';
    if (body.merchantAccount !== options.merchantAccount || !Number.isInteger(amount.value) || typeof amount.currency !== 'string') return 'capture request';
    const pspReference = reference();
    const merchantReference = String(payment.body.reference);
    notifications.push(
      adyenNotification(
        { amount: { value: amount.value as number, currency: amount.currency }, eventCode: 'CAPTURE', eventDate: new Date().toISOString(), merchantAccountCode: options.merchantAccount, merchantReference, originalReference: paymentPsp, pspReference, reason: '', success: 'true' },
        options.hmacKey,
      ),
    );
    return { status: 201, body: { merchantAccount: options.merchantAccount, paymentPspReference: paymentPsp, pspReference, reference: body.reference, status: 'received', amount } };
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await read(req);
      if (minDelay > 0 || maxDelay > 0) await new Promise((resolve) => setTimeout(resolve, minDelay + Math.random() * (maxDelay - minDelay)));
      if (failures > 0) {
        failures -= 1;
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 503, errorCode: '000', message: 'Service unavailable', errorType: 'internal' }));
        return;
      }
      if (req.headers['x-api-key'] !== options.apiKey) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' }));
        return;
      }
      const key = req.headers['idempotency-key'];
      const scopedKey = typeof key === 'string' ? `${req.url}\u0000${key}` : null;
      const earlier = scopedKey ? answered.get(scopedKey) : undefined;
      let answer: { status: number; body: unknown } | string;
      if (earlier) answer = earlier;
      else {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          validationError(res, 'Malformed JSON');
          return;
        }
        const captureMatch = /^\/v69\/payments\/([A-Z0-9]+)\/captures$/.exec(req.url ?? '');
        if (req.method === 'POST' && req.url === '/v69/payments') answer = authorise(body, req.headers);
        else if (req.method === 'POST' && captureMatch) answer = capture(captureMatch[1]!, body);
        else answer = { status: 404, body: { status: 404, errorCode: '000', message: 'Not found', errorType: 'validation' } };
      }
      if (typeof answer === 'string') {
        validationError(res, `Invalid field: ${answer}`);
        return;
      }
      if (scopedKey) answered.set(scopedKey, answer);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    payments,
    notifications,
    failNext: (count) => void (failures = count),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
