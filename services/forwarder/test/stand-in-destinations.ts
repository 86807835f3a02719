import express from 'express';
import { startHttpServer, type RunningServer } from '@vaultline/http';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/**
 * Local stand-ins shaped like the three catalog destinations. Each validates the fields its real API
 * requires and answers like it would; the Adyen one echoes the card number, as a badly behaved
 * destination might, so masking can be checked.
 */
export async function startStandIns(): Promise<RunningServer & { received: ReceivedRequest[]; connections: () => number }> {
  const received: ReceivedRequest[] = [];
  const app = express();
  app.use(express.raw({ type: () => true }));
  app.use((req, _res, next) => {
    received.push({ path: req.path, headers: req.headers, rawBody: Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '' });
    next();
  });
  app.post('/adyen/v69/payments', (req, res) => {
    const body = JSON.parse(String(req.body)) as { paymentMethod?: Record<string, unknown>; reference?: string };
    const pm = body.paymentMethod ?? {};
    const valid =
      req.get('x-api-key') === 'adyen-key' &&
      typeof pm.number === 'string' &&
      /^\d{2}$/.test(String(pm.expiryMonth)) &&
      typeof pm.expiryYear === 'string' &&
      typeof pm.cvc === 'string';
    if (!valid) {
      res.status(422).json({ status: 422, errorCode: '000', message: 'invalid request' });
      return;
    }
    res.json({ resultCode: 'Authorised', pspReference: 'PSP123', merchantReference: body.reference, additionalData: { cardNumber: pm.number } });
  });
  app.post('/checkout/payments', (req, res) => {
    const body = JSON.parse(String(req.body)) as { source?: Record<string, unknown> };
    const source = body.source ?? {};
    const valid =
      req.get('authorization') === 'Bearer sk_sbox_test' &&
      Number.isInteger(source.expiry_month) &&
      Number.isInteger(source.expiry_year) &&
      typeof source.number === 'string';
    res
      .status(valid ? 201 : 422)
      .json(valid ? { id: 'pay_1', status: 'Authorized', source: { last4: String(source.number).slice(-4) } } : { error_type: 'request_invalid' });
  });
  app.post('/stripe/v1/payment_methods', (req, res) => {
    const params = new URLSearchParams(String(req.body));
    const valid =
      req.get('authorization') === 'Bearer sk_test_123' && req.get('content-type') === 'application/x-www-form-urlencoded' && params.get('type') === 'card';
    res.status(valid ? 200 : 400).json(
      valid
        ? {
            id: 'pm_1',
            object: 'payment_method',
            card: {
              last4: params.get('card[number]')?.slice(-4),
              exp_month: Number(params.get('card[exp_month]')),
              exp_year: Number(params.get('card[exp_year]')),
            },
          }
        : { error: { type: 'invalid_request_error' } },
    );
  });
  app.post('/stripe/v1/payment_intents', (req, res) => {
    const params = new URLSearchParams(String(req.body));
    const valid =
      req.get('authorization') === 'Bearer sk_test_123' &&
      req.get('content-type') === 'application/x-www-form-urlencoded' &&
      params.get('payment_method_data[type]') === 'card';
    res.status(valid ? 200 : 400).json(valid ? { id: 'pi_1', object: 'payment_intent', status: 'succeeded' } : { error: { type: 'invalid_request_error' } });
  });
  app.post('/echo', (req, res) => {
    res.type(req.get('content-type') ?? 'application/octet-stream').send(req.body);
  });
  app.post('/slow/v69/payments', () => undefined);
  app.post('/redirect/v69/payments', (_req, res) => {
    res.redirect(307, '/adyen/v69/payments');
  });
  const server = await startHttpServer(app);
  let connections = 0;
  server.server.on('connection', () => (connections += 1));
  return Object.assign(server, { received, connections: () => connections });
}
