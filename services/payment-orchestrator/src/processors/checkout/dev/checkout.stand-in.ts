import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  displayAmount,
  formFields,
  issuerChallengePage,
  parseMultipart,
  redirectBack,
  startPspServer,
  type ChallengeOutcome,
  type PspAnswer,
} from '@vaultline/testing/psp-stand-ins';

/**
 * A stand-in of Checkout.com's payments API on loopback: `POST /payments`,
 * `POST /payments/{id}/captures`, `…/voids`, `…/refunds` and `GET /payments/{id}/actions`, with its request checks and answer shapes, the Cko-Idempotency-Key
 * honoured, and webhooks (payment_captured, payment_voided, payment_refunded) signed the way Checkout.com signs them: Cko-Signature, the
 * hex HMAC-SHA256 of the raw body with the webhook secret. It decides by the real card number the
 * forwarder filled in.
 *
 * 3-D Secure: a payment with `3ds.enabled` on the challenge card, or on any card with a challenge
 * requested (`challenge_requested`, `challenge_requested_mandate`), answers 202 Pending with
 * `_links.redirect.href`, the stand-in's issuer page; "Complete" or "Fail" settles the payment (Authorized
 * or Declined 20151, with the payment_approved or payment_authentication_failed webhook) and sends the
 * browser to `success_url` or `failure_url` with `cko-session-id`, which `GET /payments/{id}` accepts
 * like the payment id. Any other card with `3ds.enabled` is authenticated frictionless (201 with the
 * `3ds` block); the challenge card without 3-D Secure is soft-declined 20154 as an issuer that requires it does, or,
 * unless `3ds.allow_upgrade` is false, upgraded to 3-D Secure (202 Pending, `3ds.upgrade_reason: sca_retry`).
 *
 * Disputes (nas_spec disputes@{dispute_id}@accept.yaml, …@evidence.yaml, files.yaml,
 * ProvideEvidenceRequest.yaml): `POST /disputes/{id}/accept` (204), `POST /files` (multipart `file` and
 * `purpose: dispute_evidence`; JPEG, PNG or PDF of at most 4 MB; answers `{id: file_…}`),
 * `PUT /disputes/{id}/evidence` (the categories' `_file` ids and `_text`s of at most 500 characters, 204)
 * and `POST /disputes/{id}/evidence` (submits what was provided, 204); a dispute that does not wait for
 * evidence is refused 422. `dispute(…)` opens one and gives its signed dispute_received webhook.
 * Captures (https://www.checkout.com/docs/payments/manage-payments/capture-a-payment): `capture_type`
 * NonFinal keeps what is left for later captures; Final (the default) voids what is left; captures add up
 * to at most the authorized amount. A void of a partially captured payment releases what is left
 * (https://www.checkout.com/docs/payments/manage-payments/void-a-payment).
 */
export const CHECKOUT_TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** The issuer asks for a challenge (Checkout.com's 3-D Secure test card). */
  threeDsChallenge: '4543474002249996',
} as const;

const CHALLENGE_INDICATORS = ['no_preference', 'no_challenge_requested', 'challenge_requested', 'challenge_requested_mandate'];

/** A payment's 3-D Secure session at the stand-in, with the consumer's choice once made. */
export interface CheckoutChallenge {
  sessionId: string;
  paymentId: string;
  outcome: ChallengeOutcome | null;
}

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
  /** true: refunds are accepted (202) but processed only when processRefunds is called (no action listed, no webhook before). Default false. */
  holdRefunds: boolean;
  /** Processes the refunds held so far: their Refund actions are listed and their payment_refunded webhooks sent. */
  processRefunds(): void;
  /** Captures received (`POST /payments/{id}/captures`), with the action id answered. */
  captures: Array<{ paymentId: string; actionId: string; body: Record<string, unknown> }>;
  /** Refunds received (`POST /payments/{id}/refunds`), with the action id answered. */
  refunds: Array<{ paymentId: string; actionId: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** 3-D Secure sessions started (202 Pending answers). */
  challenges: CheckoutChallenge[];
  /** `GET /payments/{id}` requests received, by the id asked for (`pay_…` or `sid_…`). */
  lookups: string[];
  /** The signed payment_approved webhook Checkout.com sends for a payment it approved (by its id). */
  approvedWebhook(paymentId: string): CheckoutWebhook;
  /** Opens a dispute on a payment (by its pay_ id): its dsp_ id and the signed dispute_received webhook. */
  dispute(paymentId: string, category?: string): { id: string; webhook: CheckoutWebhook };
  /** The disputes, by id: status, the evidence provided, and whether it was submitted. */
  disputes: Map<string, CheckoutDispute>;
  /** Evidence files received (`POST /files`), with their bytes. */
  files: Array<{ id: string; filename: string; contentType: string; content: Buffer; headers: IncomingMessage['headers'] }>;
  /** Dispute requests received: accept, provide (PUT evidence) and submit (POST evidence). */
  disputeRequests: Array<{ dispute: string; action: 'accept' | 'provide' | 'submit'; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  failNext(count: number): void;
  /** The next request is answered after `ms` (later than the caller waits); it is still processed. */
  delayNext(ms: number): void;
  stop(): Promise<void>;
}

export interface CheckoutDispute {
  paymentId: string;
  status: 'evidence_required' | 'evidence_under_review' | 'accepted';
  evidence: Record<string, string>;
}

/** ProvideEvidenceRequest.yaml's categories, each a `_file` and a `_text`. */
const EVIDENCE_CATEGORIES = [
  'proof_of_delivery_or_service',
  'invoice_or_receipt',
  'invoice_showing_distinct_transactions',
  'customer_communication',
  'refund_or_cancellation_policy',
  'recurring_transaction_agreement',
  'additional_evidence',
  'proof_of_delivery_or_service_date',
];
const EVIDENCE_FIELDS = EVIDENCE_CATEGORIES.flatMap((category) => [`${category}_file`, `${category}_text`]);

const letters = (n: number) => Array.from(randomBytes(n), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

/** A 15-digit scheme transaction id that fails the Luhn check, so no card-number scan takes it for a PAN. */
function schemeId(): string {
  const digits = Array.from(randomBytes(15), (byte) => byte % 10);
  const luhn = (values: number[]) =>
    values.reduceRight((sum, d, i) => sum + ((values.length - 1 - i) % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) % 10 === 0;
  if (luhn(digits)) digits[14] = (digits[14]! + 1) % 10;
  return digits.join('');
}

function signCheckoutBody(rawBody: string, webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

export function checkoutWebhook(type: string, data: Record<string, unknown>, webhookSecret: string): CheckoutWebhook {
  const rawBody = JSON.stringify({ id: `evt_${letters(26)}`, type, version: '1.0.33', created_on: new Date().toISOString(), data });
  return { rawBody, signature: signCheckoutBody(rawBody, webhookSecret) };
}

export async function startCheckoutStandIn(options: CheckoutStandInOptions): Promise<CheckoutStandIn> {
  const payments: CheckoutStandIn['payments'] = [];
  const webhooks: CheckoutWebhook[] = [];
  const standIn = { webhookUrl: null as string | null, holdRefunds: false };
  const heldRefunds: Array<() => void> = [];
  const processRefunds = () => {
    for (const process of heldRefunds.splice(0)) process();
  };
  const send = (webhook: CheckoutWebhook) => {
    webhooks.push(webhook);
    if (standIn.webhookUrl)
      void fetch(standIn.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cko-signature': webhook.signature },
        body: webhook.rawBody,
      }).catch(() => undefined);
  };
  const answered = new Map<string, PspAnswer>();
  const voids: CheckoutStandIn['voids'] = [];
  const actions: CheckoutStandIn['actions'] = new Map();
  const act = (paymentId: string, id: string, type: string, amount: unknown, approved: boolean) =>
    actions.set(paymentId, [
      { id, type, amount, approved, response_code: approved ? '10000' : '20005', processed_on: new Date().toISOString() },
      ...(actions.get(paymentId) ?? []),
    ]);
  const refunds: CheckoutStandIn['refunds'] = [];
  const captures: CheckoutStandIn['captures'] = [];
  /** What each authorized payment can still have captured (0 once captured in full, finally, or voided). */
  const capturable = new Map<string, number>();
  const challenges: CheckoutChallenge[] = [];
  const lookups: string[] = [];
  const disputes = new Map<string, CheckoutDispute>();
  const files: CheckoutStandIn['files'] = [];
  const disputeRequests: CheckoutStandIn['disputeRequests'] = [];
  const unprocessable = (...codes: string[]): PspAnswer => ({
    status: 422,
    body: { request_id: letters(12), error_type: 'request_invalid', error_codes: codes },
  });

  function dispute(paymentId: string, category = 'fraudulent') {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    const id = `dsp_${letters(26)}`;
    disputes.set(id, { paymentId, status: 'evidence_required', evidence: {} });
    const data = {
      id,
      category,
      amount: payment.body.amount,
      currency: payment.body.currency,
      reason_code: '10.4',
      payment_id: paymentId,
      payment_reference: payment.body.reference,
      evidence_required_by: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    };
    return { id, webhook: checkoutWebhook('dispute_received', data, options.webhookSecret) };
  }

  function uploadFile(contentType: string | undefined, bytes: Buffer, headers: IncomingMessage['headers']): PspAnswer {
    const parts = parseMultipart(contentType, bytes);
    const file = parts?.find((part) => part.name === 'file' && part.filename !== null);
    if (!parts || parts.find((part) => part.name === 'purpose')?.content.toString('utf8') !== 'dispute_evidence') return unprocessable('purpose_invalid');
    if (!file || !['image/jpeg', 'image/png', 'application/pdf'].includes(file.contentType ?? '')) return unprocessable('file_type_invalid');
    if (file.content.length > 4 * 1024 * 1024) return unprocessable('file_size_invalid');
    const id = `file_${letters(26)}`;
    files.push({ id, filename: file.filename!, contentType: file.contentType!, content: Buffer.from(file.content), headers });
    return { status: 200, body: { id, _links: { self: { href: `${baseUrl}/files/${id}` } } } };
  }

  function disputeAction(id: string, action: 'accept' | 'provide' | 'submit', body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const disputed = disputes.get(id);
    if (!disputed) return { status: 404, body: undefined };
    disputeRequests.push({ dispute: id, action, body, headers });
    if (disputed.status !== 'evidence_required') return unprocessable('dispute_not_open');
    if (action === 'accept') {
      disputed.status = 'accepted';
      return { status: 204, body: undefined };
    }
    if (action === 'submit') {
      if (Object.keys(disputed.evidence).length === 0) return unprocessable('evidence_required');
      disputed.status = 'evidence_under_review';
      return { status: 204, body: undefined };
    }
    const unknown = Object.keys(body).find((key) => !EVIDENCE_FIELDS.includes(key));
    if (unknown || Object.keys(body).length === 0) return unprocessable(unknown ? `${unknown}_invalid` : 'evidence_required');
    for (const [key, value] of Object.entries(body)) {
      if (typeof value !== 'string') return unprocessable(`${key}_invalid`);
      if (key.endsWith('_text') && value.length > 500) return unprocessable(`${key}_invalid`);
      if (key.endsWith('_file') && !files.some((file) => file.id === value)) return unprocessable(`${key}_invalid`);
      disputed.evidence[key] = value;
    }
    return { status: 204, body: undefined };
  }
  /** The payment as `GET /payments/{id}` shows it (PaymentDetails), by payment id. */
  const details = new Map<string, Record<string, unknown>>();
  let baseUrl = '';

  /** The `3ds` block of an answer (3dsData) and the top-level eci. */
  const threeDsData = (authenticationResponse: 'Y' | 'N' | null) => ({
    '3ds': {
      downgraded: false,
      enrolled: 'Y',
      ...(authenticationResponse === null
        ? {}
        : {
            signature_valid: 'Y',
            authentication_response: authenticationResponse,
            version: '2.2.0',
            ...(authenticationResponse === 'Y' ? { cryptogram: randomBytes(20).toString('base64'), xid: randomBytes(20).toString('base64') } : {}),
          }),
    },
    ...(authenticationResponse === 'Y' ? { eci: '05' } : {}),
  });

  function recordDetails(id: string, body: Record<string, unknown>, status: string, approved: boolean, threeDs: Record<string, unknown>): void {
    details.set(id, {
      id,
      requested_on: new Date().toISOString(),
      source: { type: 'card', scheme: 'Visa', last4: String((body.source as { number: string }).number).slice(-4) },
      amount: body.amount,
      currency: body.currency,
      payment_type: body.payment_type ?? 'Regular',
      reference: body.reference,
      status,
      approved,
      ...threeDs,
      ...(approved ? { scheme_id: schemeId() } : {}),
      _links: { self: { href: `${baseUrl}/payments/${id}` }, actions: { href: `${baseUrl}/payments/${id}/actions` } },
    });
  }

  /** The consumer answered the issuer: the payment settles, its webhooks go, the browser goes back to the shop. */
  function settleChallenge(challenge: CheckoutChallenge, outcome: ChallengeOutcome): PspAnswer {
    challenge.outcome = outcome;
    const payment = payments.find((p) => p.id === challenge.paymentId)!;
    const body = payment.body;
    const actionId = `act_${letters(26)}`;
    const approved = outcome === 'completed';
    act(payment.id, actionId, 'Authorization', body.amount, approved);
    const captureId = `act_${letters(26)}`;
    if (approved && body.capture === true) act(payment.id, captureId, 'Capture', body.amount, true);
    recordDetails(payment.id, body, approved ? (body.capture === true ? 'Captured' : 'Authorized') : 'Declined', approved, threeDsData(approved ? 'Y' : 'N'));
    capturable.set(payment.id, approved && body.capture !== true ? Number(body.amount) : 0);
    const common = { id: payment.id, action_id: actionId, reference: body.reference, amount: body.amount, currency: body.currency };
    if (approved) {
      send(checkoutWebhook('payment_approved', { ...common, response_code: '10000', response_summary: 'Approved' }, options.webhookSecret));
      if (body.capture === true) send(checkoutWebhook('payment_captured', { ...common, action_id: captureId, response_code: '10000' }, options.webhookSecret));
    } else {
      send(
        checkoutWebhook(
          'payment_authentication_failed',
          { ...common, response_code: '20151', response_summary: 'Cardholder failed 3DS authentication', '3ds': { version: '2.2.0', challenged: true } },
          options.webhookSecret,
        ),
      );
    }
    // Without success_url / failure_url Checkout.com uses the account's own (here: pages of the stand-in).
    const back = approved ? (body.success_url ?? `${baseUrl}/account/success`) : (body.failure_url ?? `${baseUrl}/account/failure`);
    return redirectBack(String(back), { 'cko-session-id': challenge.sessionId });
  }

  /** The issuer's page and the consumer's answer on it: no secret key, a browser reaches them. */
  function issuer(req: IncomingMessage, raw: string): PspAnswer | null {
    const match = /^\/3ds\/(sid_[a-z0-9]+)(\/answer)?$/.exec(new URL(req.url ?? '/', baseUrl).pathname);
    if (!match) return null;
    const challenge = challenges.find((c) => c.sessionId === match[1]);
    if (!challenge) return { status: 404, body: undefined, html: '<!doctype html><title>Unknown</title><p>Unknown authentication session.</p>' };
    if (!match[2] && req.method === 'GET') {
      const body = payments.find((p) => p.id === challenge.paymentId)!.body;
      return issuerChallengePage({
        answerUrl: `${baseUrl}/3ds/${challenge.sessionId}/answer`,
        fields: {},
        amount: displayAmount(body.amount, body.currency),
        processor: 'Checkout.com',
      });
    }
    const outcome = formFields(raw).outcome;
    if (req.method !== 'POST' || challenge.outcome !== null || (outcome !== 'completed' && outcome !== 'failed'))
      return { status: 400, body: undefined, html: '<!doctype html><title>Refused</title><p>This authentication is over.</p>' };
    return settleChallenge(challenge, outcome);
  }

  /** `GET /payments/{id}`, by the payment id or the 3-D Secure session id (`cko-session-id`). */
  function getPayment(id: string): PspAnswer {
    lookups.push(id);
    const paymentId = id.startsWith('sid_') ? challenges.find((c) => c.sessionId === id)?.paymentId : id;
    const shown = paymentId ? details.get(paymentId) : undefined;
    if (!shown) return { status: 404, body: undefined };
    return { status: 200, body: id.startsWith('sid_') ? { ...shown, actions: actions.get(paymentId!) ?? [] } : shown };
  }

  function voidPayment(paymentId: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    voids.push({ paymentId, body, headers });
    // What is left of the authorization is released (after partial captures too).
    capturable.set(paymentId, 0);
    const actionId = `act_${letters(26)}`;
    send(
      checkoutWebhook(
        'payment_voided',
        {
          id: paymentId,
          action_id: actionId,
          reference: payment.body.reference,
          amount: payment.body.amount,
          currency: payment.body.currency,
          response_code: '10000',
        },
        options.webhookSecret,
      ),
    );
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  function refund(paymentId: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    if (body.amount !== undefined && !Number.isInteger(body.amount))
      return { status: 422, body: { request_id: letters(12), error_type: 'request_invalid', error_codes: ['amount_invalid'] } };
    const actionId = `act_${letters(26)}`;
    refunds.push({ paymentId, actionId, body, headers });
    const amount = body.amount ?? payment.body.amount;
    const processed = () => {
      act(paymentId, actionId, 'Refund', amount, true);
      send(
        checkoutWebhook(
          'payment_refunded',
          { id: paymentId, action_id: actionId, reference: body.reference, amount, currency: payment.body.currency, response_code: '10000' },
          options.webhookSecret,
        ),
      );
    };
    if (standIn.holdRefunds) heldRefunds.push(processed);
    else processed();
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  function approvedWebhook(paymentId: string): CheckoutWebhook {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    return checkoutWebhook(
      'payment_approved',
      {
        id: paymentId,
        action_id: `act_${letters(26)}`,
        reference: payment.body.reference,
        amount: payment.body.amount,
        currency: payment.body.currency,
        response_code: '10000',
      },
      options.webhookSecret,
    );
  }

  function pay(body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    const source = (body.source ?? {}) as Record<string, unknown>;
    const invalid = (code: string) => ({ status: 422, body: { request_id: letters(12), error_type: 'request_invalid', error_codes: [code] } });
    if (source.type !== 'card' || typeof source.number !== 'string' || !/^\d{12,19}$/.test(source.number)) return invalid('card_number_invalid');
    if (!Number.isInteger(source.expiry_month) || !Number.isInteger(source.expiry_year)) return invalid('card_expiry_month_invalid');
    if (!Number.isInteger(body.amount) || typeof body.currency !== 'string') return invalid('amount_invalid');
    if (body.processing_channel_id !== options.processingChannelId) return invalid('processing_channel_id_invalid');
    if (body.merchant_initiated === true && (typeof body.previous_payment_id !== 'string' || source.cvv !== undefined))
      return invalid('previous_payment_id_required');
    const threeDs = (body['3ds'] ?? {}) as Record<string, unknown>;
    const threeDsEnabled = threeDs.enabled === true;
    if (threeDs.challenge_indicator !== undefined && !CHALLENGE_INDICATORS.includes(String(threeDs.challenge_indicator)))
      return invalid('three_ds_challenge_indicator_invalid');
    const urlOk = (value: unknown) => value === undefined || (typeof value === 'string' && value.length <= 255 && /^https?:\/\//.test(value));
    if (!urlOk(body.success_url)) return invalid('success_url_invalid');
    if (!urlOk(body.failure_url)) return invalid('failure_url_invalid');
    const id = `pay_${letters(26)}`;
    payments.push({ id, body, headers });
    const common = {
      id,
      action_id: `act_${letters(26)}`,
      amount: body.amount,
      currency: body.currency,
      reference: body.reference,
      processed_on: new Date().toISOString(),
    };
    // Merchant-initiated payments are out of SCA's scope: the issuer asks nothing of them.
    const challengeCard = source.number === CHECKOUT_TEST_CARDS.threeDsChallenge && body.merchant_initiated !== true;
    // Checkout.com's automated SCA soft decline retry: a payment without 3-D Secure that the issuer soft-declines (20154) is upgraded, unless allow_upgrade is false.
    const upgraded = challengeCard && !threeDsEnabled && threeDs.allow_upgrade !== false;
    if (
      upgraded ||
      (threeDsEnabled &&
        (challengeCard || threeDs.challenge_indicator === 'challenge_requested' || threeDs.challenge_indicator === 'challenge_requested_mandate'))
    ) {
      // The redirect comes back to the shop: without success_url and failure_url it would land on the account's defaults.
      if (!upgraded && (body.success_url === undefined || body.failure_url === undefined)) return invalid('success_url_required');
      const sessionId = `sid_${letters(26)}`;
      challenges.push({ sessionId, paymentId: id, outcome: null });
      recordDetails(id, body, 'Pending', false, threeDsData(null));
      const answer = threeDsData(null);
      if (upgraded) Object.assign(answer['3ds'], { upgrade_reason: 'sca_retry' });
      return {
        status: 202,
        body: {
          id,
          status: 'Pending',
          reference: body.reference,
          ...answer,
          _links: { self: { href: `${baseUrl}/payments/${id}` }, redirect: { href: `${baseUrl}/3ds/${sessionId}` } },
        },
      };
    }
    if (challengeCard && !threeDsEnabled) {
      act(id, common.action_id, 'Authorization', body.amount, false);
      return { status: 201, body: { ...common, approved: false, status: 'Declined', response_code: '20154', response_summary: '3D Secure Required' } };
    }
    const frictionless = threeDsEnabled ? threeDsData('Y') : {};
    const approved = source.number !== CHECKOUT_TEST_CARDS.declined && source.number !== CHECKOUT_TEST_CARDS.insufficientFunds;
    act(id, common.action_id, 'Authorization', body.amount, approved);
    const autoCaptureId = `act_${letters(26)}`;
    if (approved && body.capture === true) act(id, autoCaptureId, 'Capture', body.amount, true);
    if (source.number === CHECKOUT_TEST_CARDS.declined)
      return { status: 201, body: { ...common, approved: false, status: 'Declined', response_code: '20005', response_summary: 'Declined - Do Not Honour' } };
    if (source.number === CHECKOUT_TEST_CARDS.insufficientFunds)
      return { status: 201, body: { ...common, approved: false, status: 'Declined', response_code: '20051', response_summary: 'Insufficient Funds' } };
    if (body.capture === true)
      send(
        checkoutWebhook(
          'payment_captured',
          { id, action_id: autoCaptureId, reference: body.reference, amount: body.amount, currency: body.currency, response_code: '10000' },
          options.webhookSecret,
        ),
      );
    recordDetails(id, body, body.capture === true ? 'Captured' : 'Authorized', true, frictionless);
    capturable.set(id, body.capture === true ? 0 : Number(body.amount));
    return {
      status: 201,
      body: { ...common, approved: true, status: 'Authorized', response_code: '10000', response_summary: 'Approved', scheme_id: schemeId(), ...frictionless },
    };
  }

  function capture(paymentId: string, body: Record<string, unknown>): PspAnswer {
    const payment = payments.find((p) => p.id === paymentId);
    if (!payment) return { status: 404, body: {} };
    if (body.capture_type !== undefined && body.capture_type !== 'NonFinal' && body.capture_type !== 'Final')
      return { status: 422, body: { request_id: letters(12), error_type: 'request_invalid', error_codes: ['capture_type_invalid'] } };
    const left = capturable.get(paymentId) ?? 0;
    const amount = Number.isInteger(body.amount) ? (body.amount as number) : left;
    if (amount <= 0 || amount > left)
      return { status: 403, body: { request_id: letters(12), error_type: 'action_not_allowed', error_codes: ['capture_not_allowed'] } };
    // NonFinal keeps the rest for later captures; Final (the default) voids it.
    capturable.set(paymentId, body.capture_type === 'NonFinal' ? left - amount : 0);
    const actionId = `act_${letters(26)}`;
    captures.push({ paymentId, actionId, body });
    act(paymentId, actionId, 'Capture', amount, true);
    send(
      checkoutWebhook(
        'payment_captured',
        { id: paymentId, action_id: actionId, reference: payment.body.reference, amount, currency: payment.body.currency, response_code: '10000' },
        options.webhookSecret,
      ),
    );
    return { status: 202, body: { action_id: actionId, reference: body.reference } };
  }

  const server = await startPspServer(
    { ...(options.delayMs ? { delayMs: options.delayMs } : {}), unavailable: { status: 503, body: undefined } },
    (req, raw, bytes) => {
      const page = issuer(req, raw);
      if (page) return page;
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) return { status: 401, body: undefined };
      if (req.method === 'POST' && req.url === '/files') return uploadFile(req.headers['content-type'], bytes, req.headers);
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
      const paymentMatch = /^\/payments\/((?:pay|sid)_[a-z0-9]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && paymentMatch) return getPayment(paymentMatch[1]!);
      const disputeMatch = /^\/disputes\/(dsp_[a-z0-9]+)\/(accept|evidence)$/.exec(req.url ?? '');
      if (disputeMatch && (req.method === 'POST' || (req.method === 'PUT' && disputeMatch[2] === 'evidence'))) {
        return disputeAction(disputeMatch[1]!, disputeMatch[2] === 'accept' ? 'accept' : req.method === 'PUT' ? 'provide' : 'submit', body, req.headers);
      }
      let answer: PspAnswer;
      if (req.method === 'POST' && req.url === '/payments') answer = pay(body, req.headers);
      else if (req.method === 'POST' && captureMatch) answer = capture(captureMatch[1]!, body);
      else if (req.method === 'POST' && voidMatch) answer = voidPayment(voidMatch[1]!, body, req.headers);
      else if (req.method === 'GET' && actionsMatch)
        return actions.has(actionsMatch[1]!) ? { status: 200, body: actions.get(actionsMatch[1]!) } : { status: 404, body: {} };
      else if (req.method === 'POST' && refundMatch) answer = refund(refundMatch[1]!, body, req.headers);
      else answer = { status: 404, body: {} };
      if (scopedKey) answered.set(scopedKey, answer);
      return answer;
    },
  );
  baseUrl = server.baseUrl;
  return Object.assign(standIn, server, {
    payments,
    webhooks,
    voids,
    refunds,
    captures,
    actions,
    challenges,
    lookups,
    approvedWebhook,
    processRefunds,
    dispute,
    disputes,
    files,
    disputeRequests,
  });
}
