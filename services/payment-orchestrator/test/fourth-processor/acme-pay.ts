import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { processorManifest } from '@vaultline/contracts';
import manifest from './manifest.json';
import type { CaptureOutcome } from '../../src/domain/processor-port/processor-port';
import { accountOptionsSchema } from '../../src/processors/account-plugin';
import type { AccountProcessorPlugin } from '../../src/processors/processor-plugin';
import { authorizationInput, sendMapped } from '../../src/processors/transport-port';
import { CARD_PLACEHOLDERS, field, jsonBody, text, transportOutcome } from '../../src/processors/processor-wire';
import { startPspServer, type PspServer } from '@vaultline/testing/psp-stand-ins';

/**
 * A fourth processor, made up for the test and registered only here: "Acme Pay", a JSON API with
 * `POST /v1/charges` (the card inline), `POST /v1/charges/{id}/capture` (settled by a signed webhook:
 * `Acme-Signature`, the hex HMAC-SHA256 of the raw body with the account's webhook secret). Nothing in
 * the engine knows it: the test hands it to the app with the registry's plugins.
 */
const credentialsSchema = z.object({ api_key: z.string().regex(/^acme_[a-z0-9_]+$/), webhook_secret: z.string().min(8) }).strict();
type AcmeCredentials = z.infer<typeof credentialsSchema>;

export const ACME_CAPTURE_RECHECK_MS = 5 * 60_000;

export const signAcme = (rawBody: string | Buffer, secret: string): string => createHmac('sha256', secret).update(rawBody).digest('hex');

const headers = (credentials: AcmeCredentials, idempotencyKey: string) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${credentials.api_key}`,
  'idempotency-key': idempotencyKey,
});

export const acmePay: AccountProcessorPlugin<AcmeCredentials> = {
  manifest: processorManifest(manifest),
  opens: 'per_account',
  capabilities: {
    authorize: true,
    capture: true,
    partialCapture: false,
    multipleCaptures: false,
    authentication3ri: false,
    authentication3ds: false,
    risk: false,
    explicitUnscheduledMit: true,
    modes: ['test'],
  },
  credentials: credentialsSchema,
  notifications: {
    headers: ['acme-signature'],
    verify(credentials, rawBody, received) {
      const body = jsonBody(rawBody) as { id?: string; type?: string; charge?: string; reference?: string } | undefined;
      if (!body?.id || !body.type || !body.charge) return null;
      const signature = received['acme-signature'] ?? '';
      const expected = signAcme(rawBody, (credentials as AcmeCredentials).webhook_secret);
      const verified = /^[0-9a-f]{64}$/.test(signature) && timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(expected, 'hex'));
      if (!verified) return [{ verified: false, event_name: body.type, processor_reference: body.charge }];
      const kind = body.type === 'charge.captured' ? 'capture_succeeded' : 'ignored';
      return [
        {
          verified: true,
          event: {
            kind,
            dedupe_key: `acme:${body.id}`,
            payment_reference: body.reference ?? '',
            processor_reference: body.charge,
            capture_reference: body.charge,
          },
        },
      ];
    },
    answer(receipt) {
      if (receipt.refused > 0) return { refused: 'invalid_signature', detail: 'The Acme-Signature does not verify.' };
      if (receipt.malformed) return { refused: 'invalid_notification', detail: 'Not an Acme Pay webhook.' };
      return { status: 200, contentType: 'application/json', body: '{"ok":true}' };
    },
  },
  optionsSchema: accountOptionsSchema(credentialsSchema),
  open(options, context) {
    const transport = context.transport!;
    const baseUrl = options.base_url ?? 'https://api.acme-pay.test';
    const { credentials } = options;
    return {
      id: 'acme',
      capabilities: acmePay.capabilities,
      async authorize(payment) {
        const input = authorizationInput(payment);
        const card = { pan: CARD_PLACEHOLDERS.account_number, exp_month: CARD_PLACEHOLDERS.expiration_month, exp_year: CARD_PLACEHOLDERS.expiration_year };
        const body = { amount: payment.amount, currency: payment.currency_code, reference: payment.payment_id, capture: false, card };
        const response = await sendMapped(transport, baseUrl, payment, {
          method: 'POST',
          path: '/v1/charges',
          headers: headers(credentials, payment.idempotency_key),
          body,
          carries_card_data: true,
        });
        const failed = transportOutcome(response.status);
        if (failed) return failed;
        const id = text(field(response.body, 'id'));
        if (field(response.body, 'status') !== 'authorized' || !id) return { status: 'failed', failure_reason: 'card_declined', processor_reference: id };
        return {
          status: 'succeeded',
          processor_reference: id,
          network_transaction_reference: text(field(response.body, 'network_reference')) ?? input.network_transaction_reference ?? null,
        };
      },
      async capture(payment, chargeId): Promise<CaptureOutcome> {
        if (!chargeId) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        const response = await sendMapped(transport, baseUrl, payment, {
          method: 'POST',
          path: `/v1/charges/${chargeId}/capture`,
          headers: headers(credentials, payment.idempotency_key),
          body: {},
          carries_card_data: false,
        });
        return transportOutcome(response.status) ?? { status: 'pending', processor_reference: chargeId, poll_after_ms: ACME_CAPTURE_RECHECK_MS };
      },
      async captureStatus(_payment, reference) {
        return (await context.captureSettlement?.(reference)) ?? { status: 'pending', processor_reference: reference, poll_after_ms: ACME_CAPTURE_RECHECK_MS };
      },
    };
  },
};

export interface AcmeStandIn extends PspServer {
  charges: Array<{ id: string; body: Record<string, unknown>; headers: Record<string, string | string[] | undefined> }>;
  /** Signed webhooks, as Acme Pay would send them, for the test to deliver. */
  webhooks: Array<{ rawBody: string; signature: string }>;
}

/** Acme Pay on loopback: checks the key, takes the card the transport filled in, answers, and signs its webhooks. */
export async function startAcmeStandIn(credentials: { api_key: string; webhook_secret: string }): Promise<AcmeStandIn> {
  const charges: AcmeStandIn['charges'] = [];
  const webhooks: AcmeStandIn['webhooks'] = [];
  const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex').replace(/\d/g, 'x')}`;
  const server = await startPspServer({ unavailable: { status: 503, body: undefined } }, (req, raw) => {
    if (req.headers.authorization !== `Bearer ${credentials.api_key}`) return { status: 401, body: { error: 'unauthorized' } };
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    if (req.method === 'POST' && req.url === '/v1/charges') {
      const card = (body.card ?? {}) as { pan?: string };
      if (!/^\d{12,19}$/.test(card.pan ?? '')) return { status: 422, body: { error: 'card.pan' } };
      const charge = { id: id('ch'), body, headers: req.headers };
      charges.push(charge);
      return { status: 201, body: { id: charge.id, status: card.pan === '4000000000000002' ? 'declined' : 'authorized', network_reference: 'NTRACMEFOURTH' } };
    }
    const capture = /^\/v1\/charges\/(ch_[a-z0-9]+)\/capture$/.exec(req.url ?? '');
    const charge = capture ? charges.find((c) => c.id === capture[1]) : undefined;
    if (req.method === 'POST' && charge) {
      const rawBody = JSON.stringify({ id: id('evt'), type: 'charge.captured', charge: charge.id, reference: charge.body.reference });
      webhooks.push({ rawBody, signature: signAcme(rawBody, credentials.webhook_secret) });
      return { status: 202, body: { id: charge.id, status: 'capture_pending' } };
    }
    return { status: 404, body: {} };
  });
  return Object.assign(server, { charges, webhooks });
}
