import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  displayAmount,
  formFields,
  issuerChallengePage,
  redirectBack,
  startPspServer,
  type ChallengeOutcome,
  type PspAnswer,
} from '@vaultline/testing/psp-stand-ins';

/**
 * A stand-in of Adyen's Checkout API v69 on loopback: `POST /v69/payments`,
 * `POST /v69/payments/{pspReference}/captures`, `…/cancels` and `…/refunds`, with Adyen's request checks and answer shapes, the
 * Idempotency-Key honoured (the same key gets the same answer, nothing charged twice), and standard
 * notifications (CAPTURE, CANCELLATION, REFUND) signed the way Adyen signs them (HMAC-SHA256 with the hex-decoded key over
 * the eight documented fields, base64, in additionalData.hmacSignature). It decides by the real card
 * number the forwarder filled in, so it sees what a processor would.
 *
 * 3-D Secure (the redirect flow of v69): a payment on a challenge card answers `RedirectShopper` with a
 * redirect `action` (GET, or POST with `action.data` for the second card) to the stand-in's issuer page;
 * its "Complete" or "Fail" sends the browser back to the request's `returnUrl` with `redirectResult`,
 * which `POST /v69/payments/details` turns into Authorised or Refused ("3D Not Authenticated"). A payment
 * that would be authenticated checks what Adyen requires for it: the whole `browserInfo`, `channel: Web`,
 * `origin` and `returnUrl`. `attemptAuthentication: never` on a challenge card is refused, as Adyen
 * refuses one the rules require authentication for; `always` on another card authenticates frictionless.
 *
 * Disputes (DisputeService-v30.json, under `/ca/services/DisputeService/v30`): `acceptDispute`,
 * `supplyDefenseDocument` (base64 documents, PDF, JPEG or TIFF) and `defendDispute` (a defense reason code
 * whose required document was supplied), each answering `disputeServiceResult` {success, errorMessage}
 * (success false for a dispute that is not open, an unknown reference or a missing document).
 * `dispute(…)` opens one and gives its signed NOTIFICATION_OF_CHARGEBACK (with `defensePeriodEndsAt`),
 * `fraudNotification(…)` a signed NOTIFICATION_OF_FRAUD (Visa TC40, as Adyen's example shows it).
 * Captures (https://docs.adyen.com/online-payments/capture): a payment authorised without
 * `additionalData.manualCapture` is captured by Adyen at once, reported by a CAPTURE notification (or
 * CAPTURE_FAILED, `automaticCaptures: 'fail'`). A manual capture of part of the amount cancels the rest,
 * unless the account has multiple partial captures (`multiplePartialCaptures`): then each capture takes its
 * part and the rest stays until a `/cancels` releases it. Notifications are kept for the test to deliver,
 * and sent as Adyen sends them when `webhookUrl` (or `deliver`) is set.
 */
export const ADYEN_TEST_CARDS = {
  approved: '4111111111111111',
  refused: '4000000000000002',
  notEnoughBalance: '4000000000009995',
  /** The issuer asks for a challenge; the issuer page is reached by GET (Adyen's 3-D Secure 2 test card). */
  threeDsChallenge: '4917610000000000',
  /** The issuer asks for a challenge; the issuer page is reached by POST with `action.data` (Adyen's 3-D Secure redirect test card). */
  threeDsChallengePost: '4212345678901237',
} as const;

/** The fields Adyen's BrowserInfo requires (CheckoutService-v69.json, components.schemas.BrowserInfo.required). */
const BROWSER_INFO_FIELDS = {
  acceptHeader: 'string',
  colorDepth: 'number',
  javaEnabled: 'boolean',
  language: 'string',
  screenHeight: 'number',
  screenWidth: 'number',
  timeZoneOffset: 'number',
  userAgent: 'string',
} as const;

export interface AdyenStandInOptions {
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  /** Answer after a delay drawn from [min, max] ms, like a real PSP (0, 0: at once). */
  delayMs?: [number, number];
  /**
   * Whether Authorised answers carry additionalData.networkTxReference (default true): Adyen returns it only
   * when the account's "Network transaction reference" additional-data setting is on.
   */
  networkTxReference?: boolean;
  /** Multiple partial captures enabled on the account (default false: a partial capture cancels the rest). */
  multiplePartialCaptures?: boolean;
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
  /** Signed notifications (CAPTURE, CAPTURE_FAILED, CANCELLATION, REFUND), in the order Adyen sends them, for the test to deliver. */
  notifications: Array<{ live: 'false'; notificationItems: Array<{ NotificationRequestItem: AdyenNotificationItem }> }>;
  /** When set, each notification is also POSTed there as Adyen sends it (not awaited). */
  webhookUrl: string | null;
  /** When set, each notification's raw body is handed to it (a test without HTTP in between: the orchestrator harness). */
  deliver: ((rawBody: string) => Promise<unknown>) | null;
  /** Resolves once every notification sent so far was answered. */
  delivered(): Promise<void>;
  /** How Adyen's own capture of an automatic-capture payment goes: CAPTURE (succeed, the default) or CAPTURE_FAILED (fail). */
  automaticCaptures: 'succeed' | 'fail';
  /** Manual captures received (`POST /v69/payments/{pspReference}/captures`), with the capture's own pspReference. */
  captures: Array<{ paymentPspReference: string; pspReference: string; body: Record<string, unknown> }>;
  /** Cancels received (`POST /v69/payments/{pspReference}/cancels`), by the payment's pspReference. */
  cancels: Array<{ paymentPspReference: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** Refunds received (`POST /v69/payments/{pspReference}/refunds`), with the refund's own pspReference. */
  refunds: Array<{ paymentPspReference: string; pspReference: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** `POST /v69/payments/details` requests received. */
  details: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** Challenges started (RedirectShopper answers), with the consumer's choice once made. */
  challenges: AdyenChallenge[];
  /** Opens a dispute on a payment (by its pspReference): the signed NOTIFICATION_OF_CHARGEBACK naming it, the dispute's own pspReference. */
  dispute(
    paymentPspReference: string,
    options?: { reason?: string; defensePeriodEndsAt?: string },
  ): { pspReference: string; notification: AdyenStandIn['notifications'][number] };
  /** The disputes, by their pspReference, as Adyen holds them (status, documents supplied, defense). */
  disputes: Map<string, AdyenDispute>;
  /** Disputes API requests received, by operation. */
  disputeRequests: Array<{ operation: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  /** A signed NOTIFICATION_OF_FRAUD on a payment (by its pspReference): the issuer's fraud report. */
  fraudNotification(paymentPspReference: string, reason?: string): AdyenStandIn['notifications'][number];
  /** The signed AUTHORISATION notification Adyen sends for a payment it answered (by its pspReference). */
  authorisationNotification(pspReference: string): AdyenStandIn['notifications'][number];
  /** The next `count` requests answer 503 (a PSP outage). */
  failNext(count: number): void;
  /** The next request is answered after `ms` (later than the caller waits); it is still processed. */
  delayNext(ms: number): void;
  stop(): Promise<void>;
}

export interface AdyenDispute {
  paymentPspReference: string;
  status: 'Undefended' | 'Pending' | 'Accepted';
  documents: Array<{ defenseDocumentTypeCode: string; contentType: string; content: Buffer }>;
  defenseReasonCode: string | null;
}

/** The defense reasons the stand-in offers and the document each requires (retrieveApplicableDefenseReasons' example). */
const DEFENSE_REASONS: Record<string, string> = {
  SupplyDefenseMaterial: 'DefenseMaterial',
  GoodsNotReturned: 'GoodsNotReturned',
  GoodsWereAsDescribed: 'GoodsWereAsDescribed',
};
const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/tiff'];

export interface AdyenChallenge {
  md: string;
  /** Adyen's reference of the payment: not in the RedirectShopper answer, given by /payments/details. */
  pspReference: string;
  returnUrl: string;
  outcome: ChallengeOutcome | null;
  redirectResult: string | null;
}

/** Letters only: a reference with a long digit run could pass a card-number scan. */
const reference = () => Array.from(randomBytes(16), (byte) => String.fromCharCode(65 + (byte % 26))).join('');

function signAdyenNotificationItem(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKeyHex: string): string {
  const fields = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ];
  return createHmac('sha256', Buffer.from(hmacKeyHex, 'hex')).update(fields.join(':'), 'utf8').digest('base64');
}

export function adyenNotification(item: Omit<AdyenNotificationItem, 'additionalData'>, hmacKeyHex: string) {
  return {
    live: 'false' as const,
    notificationItems: [{ NotificationRequestItem: { ...item, additionalData: { hmacSignature: signAdyenNotificationItem(item, hmacKeyHex) } } }],
  };
}

/** A standard notification of `count` small items, none signed: what an attacker posts to fill a store. */
export function unsignedAdyenNotification(count: number): string {
  return JSON.stringify({
    live: 'false',
    notificationItems: Array.from({ length: count }, (_, n) => ({
      NotificationRequestItem: {
        amount: { value: 1, currency: 'EUR' },
        eventCode: 'CAPTURE',
        merchantAccountCode: 'S',
        merchantReference: 'r',
        pspReference: `P${n}`,
        success: 'true',
      },
    })),
  });
}

function validationError(message: string): PspAnswer {
  return { status: 422, body: { status: 422, errorCode: '702', message, errorType: 'validation' } };
}

export async function startAdyenStandIn(options: AdyenStandInOptions): Promise<AdyenStandIn> {
  const payments: AdyenPaymentRecord[] = [];
  const notifications: AdyenStandIn['notifications'] = [];
  const captures: AdyenStandIn['captures'] = [];
  const standIn = {
    webhookUrl: null as string | null,
    deliver: null as ((rawBody: string) => Promise<unknown>) | null,
    automaticCaptures: 'succeed' as 'succeed' | 'fail',
  };
  const inFlight = new Set<Promise<unknown>>();
  /** Keeps the notification and, when the test set where, sends it as Adyen does (JSON POST). */
  const notify = (notification: AdyenStandIn['notifications'][number]) => {
    notifications.push(notification);
    const rawBody = JSON.stringify(notification);
    const delivery = standIn.deliver
      ? standIn.deliver(rawBody).catch(() => undefined)
      : standIn.webhookUrl
        ? fetch(standIn.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rawBody }).catch(() => undefined)
        : null;
    if (!delivery) return;
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };
  const delivered = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  /** What each authorised payment can still have captured (its authorized amount, less captures; 0 once the rest was cancelled). */
  const capturable = new Map<string, number>();
  const cancels: AdyenStandIn['cancels'] = [];
  const refunds: AdyenStandIn['refunds'] = [];
  const answered = new Map<string, PspAnswer>();
  const details: AdyenStandIn['details'] = [];
  const challenges: AdyenChallenge[] = [];
  const disputes = new Map<string, AdyenDispute>();
  const disputeRequests: AdyenStandIn['disputeRequests'] = [];
  let baseUrl = '';

  function disputeItem(
    eventCode: string,
    paymentPsp: string,
    pspReference: string,
    reason: string,
    additionalData: Record<string, string>,
  ): AdyenStandIn['notifications'][number] {
    const payment = payments.find((p) => p.pspReference === paymentPsp);
    if (!payment) throw new Error(`no payment ${paymentPsp}`);
    const notification = adyenNotification(
      {
        amount: payment.body.amount as { value: number; currency: string },
        eventCode,
        eventDate: new Date().toISOString(),
        merchantAccountCode: options.merchantAccount,
        merchantReference: String(payment.body.reference),
        originalReference: paymentPsp,
        pspReference,
        reason,
        success: 'true',
      },
      options.hmacKey,
    );
    Object.assign(notification.notificationItems[0]!.NotificationRequestItem.additionalData, additionalData);
    return notification;
  }

  function dispute(paymentPsp: string, { reason = 'Fraud', defensePeriodEndsAt = new Date(Date.now() + 7 * 86_400_000).toISOString() } = {}) {
    const pspReference = reference();
    disputes.set(pspReference, { paymentPspReference: paymentPsp, status: 'Undefended', documents: [], defenseReasonCode: null });
    const notification = disputeItem('NOTIFICATION_OF_CHARGEBACK', paymentPsp, pspReference, reason, {
      disputeStatus: 'Undefended',
      defendable: 'true',
      defensePeriodEndsAt,
      chargebackReasonCode: '10.4',
      chargebackSchemeCode: 'visa',
    });
    return { pspReference, notification };
  }

  function fraudNotification(paymentPsp: string, reason = 'Fraudulent Use of Account Number') {
    return disputeItem('NOTIFICATION_OF_FRAUD', paymentPsp, reference(), reason, { nofReasonCode: '6', nofSchemeCode: 'visa' });
  }

  const serviceResult = (success: boolean, errorMessage?: string): PspAnswer => ({
    status: 200,
    body: { disputeServiceResult: { success, ...(errorMessage ? { errorMessage } : {}) } },
  });

  function disputeService(operation: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer {
    disputeRequests.push({ operation, body, headers });
    if (body.merchantAccountCode !== options.merchantAccount) return validationError('Invalid field: merchantAccountCode');
    const disputed = disputes.get(String(body.disputePspReference));
    if (!disputed) return serviceResult(false, 'Could not find dispute');
    if (disputed.status !== 'Undefended') return serviceResult(false, `Dispute is ${disputed.status.toLowerCase()}, no action possible`);
    if (operation === 'acceptDispute') {
      disputed.status = 'Accepted';
      return serviceResult(true);
    }
    if (operation === 'supplyDefenseDocument') {
      const documents = Array.isArray(body.defenseDocuments) ? (body.defenseDocuments as Array<Record<string, unknown>>) : [];
      if (documents.length === 0) return validationError('Invalid field: defenseDocuments');
      for (const document of documents) {
        if (!DOCUMENT_TYPES.includes(String(document.contentType))) return serviceResult(false, `Unsupported content type ${String(document.contentType)}`);
        if (typeof document.content !== 'string' || !/^[A-Za-z0-9+/]+=*$/.test(document.content)) return validationError('Invalid field: content');
        disputed.documents.push({
          defenseDocumentTypeCode: String(document.defenseDocumentTypeCode),
          contentType: String(document.contentType),
          content: Buffer.from(document.content, 'base64'),
        });
      }
      return serviceResult(true);
    }
    if (operation === 'defendDispute') {
      const required = DEFENSE_REASONS[String(body.defenseReasonCode)];
      if (!required) return serviceResult(false, `Invalid defense reason code ${String(body.defenseReasonCode)}`);
      if (!disputed.documents.some((document) => document.defenseDocumentTypeCode === required))
        return serviceResult(false, `Required defense document ${required} missing`);
      disputed.status = 'Pending';
      disputed.defenseReasonCode = String(body.defenseReasonCode);
      return serviceResult(true);
    }
    return { status: 404, body: { status: 404, errorCode: '000', message: 'Not found', errorType: 'validation' } };
  }

  /** What Adyen requires of a payment it is to authenticate in a browser; the field named, else null. */
  function threeDsFieldMissing(body: Record<string, unknown>): string | null {
    const browserInfo = (body.browserInfo ?? {}) as Record<string, unknown>;
    for (const [name, type] of Object.entries(BROWSER_INFO_FIELDS)) if (typeof browserInfo[name] !== type) return `browserInfo.${name}`;
    if (body.channel !== 'Web') return 'channel';
    if (typeof body.origin !== 'string' || !/^https?:\/\/[^/]+$/.test(body.origin) || body.origin.length > 80) return 'origin';
    if (typeof body.returnUrl !== 'string' || !/^https?:\/\//.test(body.returnUrl)) return 'returnUrl';
    const challengeInd = ((body.threeDS2RequestData ?? {}) as Record<string, unknown>).threeDSRequestorChallengeInd;
    if (challengeInd !== undefined && !['01', '02', '03', '04', '05', '06'].includes(String(challengeInd)))
      return 'threeDS2RequestData.threeDSRequestorChallengeInd';
    return null;
  }

  /** additionalData of an authenticated payment (ResponseAdditionalDataCommon, ResponseAdditionalData3DSecure). */
  const authenticated = (transStatus: 'Y' | 'N') => ({
    threeDOffered: 'true',
    threeDOfferedResponse: 'Y',
    threeDAuthenticated: String(transStatus === 'Y'),
    threeDAuthenticatedResponse: transStatus,
    liabilityShift: String(transStatus === 'Y'),
    eci: transStatus === 'Y' ? '05' : '07',
    threeDSVersion: '2.2.0',
    dsTransID: randomUUID(),
    ...(transStatus === 'Y' ? { cavv: randomBytes(20).toString('base64') } : {}),
  });

  function redirectShopper(pspReference: string, body: Record<string, unknown>, method: 'GET' | 'POST'): PspAnswer {
    const md = reference();
    challenges.push({ md, pspReference, returnUrl: String(body.returnUrl), outcome: null, redirectResult: null });
    const action =
      method === 'GET'
        ? { paymentMethodType: 'scheme', url: `${baseUrl}/checkoutshopper/threeDS/redirect?MD=${md}`, method: 'GET', type: 'redirect' }
        : {
            paymentMethodType: 'scheme',
            url: `${baseUrl}/hpp/3d/validate.shtml`,
            method: 'POST',
            data: { MD: md, PaReq: randomBytes(24).toString('base64'), TermUrl: `${baseUrl}/checkoutshopper/threeDS/answer` },
            type: 'redirect',
          };
    // No pspReference: Adyen gives it in the /payments/details answer for payments that need an action.
    return { status: 200, body: { resultCode: 'RedirectShopper', action, merchantReference: body.reference } };
  }

  function paymentDetails(body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer | string {
    const redirectResult = ((body.details ?? {}) as Record<string, unknown>).redirectResult;
    const challenge = challenges.find((c) => c.redirectResult !== null && c.redirectResult === redirectResult);
    if (!challenge) return 'details.redirectResult';
    details.push({ body, headers });
    const payment = payments.find((p) => p.pspReference === challenge.pspReference)!;
    const merchantReference = payment.body.reference;
    if (challenge.outcome === 'failed') {
      return {
        status: 200,
        body: {
          pspReference: challenge.pspReference,
          resultCode: 'Refused',
          refusalReason: '3D Not Authenticated',
          refusalReasonCode: '11',
          merchantReference,
          additionalData: authenticated('N'),
        },
      };
    }
    const networkTx = options.networkTxReference === false ? {} : { networkTxReference: `NTR${reference()}` };
    authorised(challenge.pspReference, payment.body);
    return {
      status: 200,
      body: {
        pspReference: challenge.pspReference,
        resultCode: 'Authorised',
        merchantReference,
        amount: payment.body.amount,
        additionalData: { ...authenticated('Y'), ...networkTx },
      },
    };
  }

  /** The issuer's page and the consumer's answer on it: no API key, a browser reaches them. */
  function issuer(req: IncomingMessage, raw: string): PspAnswer | null {
    const url = new URL(req.url ?? '/', baseUrl);
    const fields = req.method === 'POST' ? formFields(raw) : Object.fromEntries(url.searchParams);
    if (url.pathname === '/checkoutshopper/threeDS/redirect' || url.pathname === '/hpp/3d/validate.shtml') {
      const challenge = challenges.find((c) => c.md === fields.MD);
      if (!challenge) return { status: 404, body: undefined, html: '<!doctype html><title>Unknown</title><p>Unknown authentication session.</p>' };
      const payment = payments.find((p) => p.pspReference === challenge.pspReference)!;
      const amount = payment.body.amount as { value: number; currency: string };
      return issuerChallengePage({
        answerUrl: `${baseUrl}/checkoutshopper/threeDS/answer`,
        fields: { MD: challenge.md },
        amount: displayAmount(amount.value, amount.currency),
        processor: 'Adyen',
      });
    }
    if (url.pathname === '/checkoutshopper/threeDS/answer' && req.method === 'POST') {
      const challenge = challenges.find((c) => c.md === fields.MD);
      if (!challenge || challenge.outcome !== null || (fields.outcome !== 'completed' && fields.outcome !== 'failed'))
        return { status: 400, body: undefined, html: '<!doctype html><title>Refused</title><p>This authentication is over.</p>' };
      challenge.outcome = fields.outcome;
      challenge.redirectResult = `${reference()}${reference()}`;
      return redirectBack(challenge.returnUrl, { redirectResult: challenge.redirectResult });
    }
    return null;
  }

  /**
   * A payment authorised: capturable in full; without manualCapture Adyen captures it at once by itself and
   * says so with CAPTURE (its own pspReference, originalReference the payment's), or CAPTURE_FAILED.
   */
  function authorised(pspReference: string, body: Record<string, unknown>): void {
    const amount = body.amount as { value: number; currency: string };
    const manual = ((body.additionalData ?? {}) as Record<string, unknown>).manualCapture === 'true';
    if (manual) {
      capturable.set(pspReference, amount.value);
      return;
    }
    capturable.set(pspReference, 0);
    const eventCode = standIn.automaticCaptures === 'fail' ? 'CAPTURE_FAILED' : 'CAPTURE';
    const reason = eventCode === 'CAPTURE_FAILED' ? 'Insufficient balance on payment' : '';
    notify(
      adyenNotification(
        {
          amount,
          eventCode,
          eventDate: new Date().toISOString(),
          merchantAccountCode: options.merchantAccount,
          merchantReference: String(body.reference),
          originalReference: pspReference,
          pspReference: reference(),
          reason,
          success: 'true',
        },
        options.hmacKey,
      ),
    );
  }

  function authorise(body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer | string {
    const pm = (body.paymentMethod ?? {}) as Record<string, unknown>;
    const amount = (body.amount ?? {}) as Record<string, unknown>;
    const additionalData = (body.additionalData ?? {}) as Record<string, unknown>;
    if (body.merchantAccount !== options.merchantAccount) return 'merchantAccount';
    if (!Number.isInteger(amount.value) || typeof amount.currency !== 'string') return 'amount';
    if (typeof body.reference !== 'string' || body.reference === '') return 'reference';
    if (pm.type !== 'scheme' || typeof pm.number !== 'string' || !/^\d{12,19}$/.test(pm.number)) return 'paymentMethod.number';
    if (!/^\d{2}$/.test(String(pm.expiryMonth)) || !/^\d{4}$/.test(String(pm.expiryYear))) return 'paymentMethod.expiry';
    const contAuth = body.shopperInteraction === 'ContAuth';
    if (body.recurringProcessingModel !== undefined && !['CardOnFile', 'Subscription', 'UnscheduledCardOnFile'].includes(String(body.recurringProcessingModel)))
      return 'recurringProcessingModel';
    // ContAuth + CardOnFile is a returning shopper paying in session (one-click, cvc allowed); ContAuth on another model is merchant-initiated.
    const merchantInitiated = contAuth && body.recurringProcessingModel !== 'CardOnFile';
    if (merchantInitiated && (typeof additionalData.networkTxReference !== 'string' || pm.cvc !== undefined))
      return 'merchant-initiated ContAuth needs additionalData.networkTxReference and no cvc';
    if (!contAuth && body.shopperInteraction !== 'Ecommerce') return 'shopperInteraction';
    const attempt = ((body.authenticationData ?? {}) as Record<string, unknown>).attemptAuthentication;
    if (attempt !== undefined && attempt !== 'always' && attempt !== 'never') return 'authenticationData.attemptAuthentication';
    const challengeCard = pm.number === ADYEN_TEST_CARDS.threeDsChallenge || pm.number === ADYEN_TEST_CARDS.threeDsChallengePost;
    // Shopper-in-session payments only: a merchant-initiated one is never authenticated.
    const authenticate = !merchantInitiated && attempt !== 'never' && (challengeCard || attempt === 'always');
    if (authenticate) {
      const missing = threeDsFieldMissing(body);
      if (missing) return missing;
    }
    const pspReference = reference();
    payments.push({ pspReference, body, headers });
    const merchantReference = body.reference;
    if (challengeCard && attempt === 'never' && !merchantInitiated)
      return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: '3D Not Authenticated', refusalReasonCode: '11', merchantReference } };
    if (authenticate && challengeCard) return redirectShopper(pspReference, body, pm.number === ADYEN_TEST_CARDS.threeDsChallengePost ? 'POST' : 'GET');
    if (pm.number === ADYEN_TEST_CARDS.refused)
      return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: 'Refused', refusalReasonCode: '2', merchantReference } };
    if (pm.number === ADYEN_TEST_CARDS.notEnoughBalance)
      return { status: 200, body: { pspReference, resultCode: 'Refused', refusalReason: 'Not enough balance', refusalReasonCode: '12', merchantReference } };
    const networkTxReference = merchantInitiated ? String(additionalData.networkTxReference) : `NTR${reference()}`;
    const frictionless = authenticate ? authenticated('Y') : {};
    authorised(pspReference, body);
    return {
      status: 200,
      body: {
        pspReference,
        resultCode: 'Authorised',
        merchantReference,
        amount,
        additionalData: { ...frictionless, ...(options.networkTxReference === false ? {} : { networkTxReference }) },
      },
    };
  }

  function capture(paymentPsp: string, body: Record<string, unknown>): PspAnswer | string {
    const payment = payments.find((p) => p.pspReference === paymentPsp);
    const amount = (body.amount ?? {}) as { value?: unknown; currency?: unknown };
    if (!payment) return 'unknown pspReference';
    if (body.merchantAccount !== options.merchantAccount || !Number.isInteger(amount.value) || typeof amount.currency !== 'string') return 'capture request';
    // A capture of more than is left (a capture after the rest was cancelled, too) is refused.
    const left = capturable.get(paymentPsp) ?? 0;
    if ((amount.value as number) > left) return 'amount (more than the authorised amount left to capture)';
    // Without multiple partial captures any unclaimed amount after a partial capture gets cancelled.
    capturable.set(paymentPsp, options.multiplePartialCaptures ? left - (amount.value as number) : 0);
    const pspReference = reference();
    captures.push({ paymentPspReference: paymentPsp, pspReference, body });
    const merchantReference = String(payment.body.reference);
    notify(
      adyenNotification(
        {
          amount: { value: amount.value as number, currency: amount.currency },
          eventCode: 'CAPTURE',
          eventDate: new Date().toISOString(),
          merchantAccountCode: options.merchantAccount,
          merchantReference,
          originalReference: paymentPsp,
          pspReference,
          reason: '',
          success: 'true',
        },
        options.hmacKey,
      ),
    );
    return {
      status: 201,
      body: { merchantAccount: options.merchantAccount, paymentPspReference: paymentPsp, pspReference, reference: body.reference, status: 'received', amount },
    };
  }

  function cancel(paymentPsp: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer | string {
    if (!payments.some((p) => p.pspReference === paymentPsp)) return 'unknown pspReference';
    if (body.merchantAccount !== options.merchantAccount) return 'merchantAccount';
    cancels.push({ paymentPspReference: paymentPsp, body, headers });
    capturable.set(paymentPsp, 0);
    const pspReference = reference();
    const payment = payments.find((p) => p.pspReference === paymentPsp)!;
    notify(
      adyenNotification(
        {
          amount: payment.body.amount as { value: number; currency: string },
          eventCode: 'CANCELLATION',
          eventDate: new Date().toISOString(),
          merchantAccountCode: options.merchantAccount,
          merchantReference: String(body.reference ?? payment.body.reference),
          originalReference: paymentPsp,
          pspReference,
          reason: '',
          success: 'true',
        },
        options.hmacKey,
      ),
    );
    return {
      status: 201,
      body: { merchantAccount: options.merchantAccount, paymentPspReference: paymentPsp, pspReference, reference: body.reference, status: 'received' },
    };
  }

  function refund(paymentPsp: string, body: Record<string, unknown>, headers: IncomingMessage['headers']): PspAnswer | string {
    const payment = payments.find((p) => p.pspReference === paymentPsp);
    const amount = (body.amount ?? {}) as { value?: unknown; currency?: unknown };
    if (!payment) return 'unknown pspReference';
    if (body.merchantAccount !== options.merchantAccount) return 'merchantAccount';
    if (!Number.isInteger(amount.value) || amount.currency !== (payment.body.amount as { currency: string }).currency) return 'amount';
    if (body.reference !== undefined && (typeof body.reference !== 'string' || body.reference.length > 80)) return 'reference';
    if (body.merchantRefundReason !== undefined && !['FRAUD', 'CUSTOMER REQUEST', 'RETURN', 'DUPLICATE', 'OTHER'].includes(String(body.merchantRefundReason)))
      return 'merchantRefundReason';
    const pspReference = reference();
    refunds.push({ paymentPspReference: paymentPsp, pspReference, body, headers });
    notify(
      adyenNotification(
        {
          amount: { value: amount.value as number, currency: String(amount.currency) },
          eventCode: 'REFUND',
          eventDate: new Date().toISOString(),
          merchantAccountCode: options.merchantAccount,
          merchantReference: String(body.reference ?? ''),
          originalReference: paymentPsp,
          pspReference,
          reason: '',
          success: 'true',
        },
        options.hmacKey,
      ),
    );
    return {
      status: 201,
      body: { merchantAccount: options.merchantAccount, paymentPspReference: paymentPsp, pspReference, reference: body.reference, status: 'received', amount },
    };
  }

  function authorisationNotification(pspReference: string): AdyenStandIn['notifications'][number] {
    const payment = payments.find((p) => p.pspReference === pspReference);
    if (!payment) throw new Error(`no payment ${pspReference}`);
    const amount = payment.body.amount as { value: number; currency: string };
    const refused = [ADYEN_TEST_CARDS.refused, ADYEN_TEST_CARDS.notEnoughBalance].includes((payment.body.paymentMethod as { number: never }).number);
    return adyenNotification(
      {
        amount,
        eventCode: 'AUTHORISATION',
        eventDate: new Date().toISOString(),
        merchantAccountCode: options.merchantAccount,
        merchantReference: String(payment.body.reference),
        pspReference,
        reason: refused ? 'Refused' : '',
        success: refused ? 'false' : 'true',
      },
      options.hmacKey,
    );
  }

  const server = await startPspServer(
    {
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
      unavailable: { status: 503, body: { status: 503, errorCode: '000', message: 'Service unavailable', errorType: 'internal' } },
    },
    (req, raw) => {
      const page = issuer(req, raw);
      if (page) return page;
      if (req.headers['x-api-key'] !== options.apiKey)
        return { status: 401, body: { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' } };
      const key = req.headers['idempotency-key'];
      const scopedKey = typeof key === 'string' ? `${req.url}\u0000${key}` : null;
      const earlier = scopedKey ? answered.get(scopedKey) : undefined;
      if (earlier) return earlier;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return validationError('Malformed JSON');
      }
      const captureMatch = /^\/v69\/payments\/([A-Z0-9]+)\/captures$/.exec(req.url ?? '');
      const cancelMatch = /^\/v69\/payments\/([A-Z0-9]+)\/cancels$/.exec(req.url ?? '');
      const refundMatch = /^\/v69\/payments\/([A-Z0-9]+)\/refunds$/.exec(req.url ?? '');
      const disputeOperation = /^\/ca\/services\/DisputeService\/v30\/([A-Za-z]+)$/.exec(req.url ?? '');
      let answer: PspAnswer | string;
      if (req.method === 'POST' && disputeOperation) answer = disputeService(disputeOperation[1]!, body, req.headers);
      else if (req.method === 'POST' && req.url === '/v69/payments') answer = authorise(body, req.headers);
      else if (req.method === 'POST' && req.url === '/v69/payments/details') answer = paymentDetails(body, req.headers);
      else if (req.method === 'POST' && captureMatch) answer = capture(captureMatch[1]!, body);
      else if (req.method === 'POST' && cancelMatch) answer = cancel(cancelMatch[1]!, body, req.headers);
      else if (req.method === 'POST' && refundMatch) answer = refund(refundMatch[1]!, body, req.headers);
      else answer = { status: 404, body: { status: 404, errorCode: '000', message: 'Not found', errorType: 'validation' } };
      if (typeof answer === 'string') return validationError(`Invalid field: ${answer}`);
      if (scopedKey) answered.set(scopedKey, answer);
      return answer;
    },
  );
  baseUrl = server.baseUrl;
  return Object.assign(standIn, server, {
    payments,
    notifications,
    cancels,
    refunds,
    captures,
    details,
    challenges,
    authorisationNotification,
    delivered,
    dispute,
    disputes,
    disputeRequests,
    fraudNotification,
  });
}
