import type { Mode } from '@vaultline/core';
import type { DisputeEvidence, EvidenceContentType, EvidenceFileField } from '../../domain/payment-vocabulary/dispute-evidence';
import type { DisputeActionOutcome, ProcessorDispute } from '../../domain/processor-port/processor-port';
import { disputeAnswerOutcome, unsupportedFileType } from '../dispute-answer-wire';
import { field, text, type ProcessorHttpRequest, type ProcessorHttpResponse } from '../processor-wire';
import { ADYEN_TEST_BASE_URL, type AdyenCredentials } from './adyen.account';
import { adyenHeaders } from './adyen.mapper';

/**
 * Answering an Adyen dispute (pure), as Adyen's Disputes API takes it (Adyen/adyen-openapi
 * DisputeService-v30.json, server https://ca-test.adyen.com/ca/services/DisputeService/v30, the same API
 * key in X-API-Key): `POST /acceptDispute` {disputePspReference, merchantAccountCode};
 * `POST /supplyDefenseDocument` {defenseDocuments: [{content (base64), contentType,
 * defenseDocumentTypeCode}], disputePspReference, merchantAccountCode}; `POST /defendDispute`
 * {defenseReasonCode, disputePspReference, merchantAccountCode}. Each answers `disputeServiceResult`
 * {success, errorMessage}: success false is a refusal whatever the HTTP status. Adyen takes documents
 * only (no text evidence), as PDF, JPEG or TIFF (the formats the schemes' dispute systems take); which
 * documents a defense needs depends on its reason (retrieveApplicableDefenseReasons lists them).
 */
const ADYEN_DISPUTES_PATH = '/ca/services/DisputeService/v30';
const ADYEN_DISPUTES_TEST_BASE_URL = `https://ca-test.adyen.com${ADYEN_DISPUTES_PATH}`;
const ADYEN_DISPUTES_LIVE_BASE_URL = `https://ca-live.adyen.com${ADYEN_DISPUTES_PATH}`;
const ADYEN_EVIDENCE_CONTENT_TYPES: readonly EvidenceContentType[] = ['application/pdf', 'image/jpeg', 'image/tiff'];

/**
 * The document type a file is sent as when the merchant names none: the invoice as Adyen's
 * `TIDorInvoice`, everything else as `DefenseMaterial` (the documents of the SupplyDefenseMaterial
 * defense, in Adyen's retrieveApplicableDefenseReasons example).
 */
const DEFAULT_DOCUMENT_TYPES: Partial<Record<EvidenceFileField, string>> = { receipt: 'TIDorInvoice' };

type Request = Omit<ProcessorHttpRequest, 'carries_card_data'>;

/**
 * Where the Disputes API is: Adyen's test or live Customer Area host, unless the account's base URL points
 * elsewhere than Adyen's payment hosts (an operator's proxy, a stand-in), which then serves it under the same path.
 */
export function adyenDisputesBaseUrl(mode: Mode, accountBaseUrl: string | null): string {
  const own = accountBaseUrl?.replace(/\/+$/, '');
  if (own && own !== ADYEN_TEST_BASE_URL && !/^https:\/\/[a-z0-9-]+-checkout-live\.adyenpayments\.com\/checkout$/i.test(own))
    return `${own}${ADYEN_DISPUTES_PATH}`;
  return mode === 'test' ? ADYEN_DISPUTES_TEST_BASE_URL : ADYEN_DISPUTES_LIVE_BASE_URL;
}

const target = (credentials: AdyenCredentials, dispute: ProcessorDispute) => ({
  disputePspReference: dispute.processor_reference,
  merchantAccountCode: credentials.merchant_account,
});

export function toAdyenAcceptDisputeRequest(credentials: AdyenCredentials, dispute: ProcessorDispute): Request {
  return { method: 'POST', path: '/acceptDispute', headers: adyenHeaders(credentials, dispute.idempotency_key), body: target(credentials, dispute) };
}

export function toAdyenSupplyDefenseDocumentRequest(credentials: AdyenCredentials, dispute: ProcessorDispute, evidence: DisputeEvidence): Request {
  const defenseDocuments = Object.entries(evidence.files).flatMap(([name, file]) =>
    file
      ? [
          {
            content: file.content.toString('base64'),
            contentType: file.content_type,
            defenseDocumentTypeCode: file.document_type ?? DEFAULT_DOCUMENT_TYPES[name as EvidenceFileField] ?? 'DefenseMaterial',
          },
        ]
      : [],
  );
  return {
    method: 'POST',
    path: '/supplyDefenseDocument',
    headers: adyenHeaders(credentials, `${dispute.idempotency_key}:documents`),
    body: { defenseDocuments, ...target(credentials, dispute) },
  };
}

export function toAdyenDefendDisputeRequest(credentials: AdyenCredentials, dispute: ProcessorDispute, defenseReasonCode: string): Request {
  return {
    method: 'POST',
    path: '/defendDispute',
    headers: adyenHeaders(credentials, dispute.idempotency_key),
    body: { defenseReasonCode, ...target(credentials, dispute) },
  };
}

/** Adyen's answer: taken only when `disputeServiceResult.success` is true; its errorMessage (or a ServiceError's message) quoted. */
export function adyenDisputeOutcome(response: ProcessorHttpResponse): DisputeActionOutcome {
  const result = field(response.body, 'disputeServiceResult');
  const message = (body: unknown) => text(field(field(body, 'disputeServiceResult'), 'errorMessage')) ?? text(field(body, 'message'));
  if (response.status >= 200 && response.status < 300 && field(result, 'success') !== true) {
    return { status: 'refused', detail: `Adyen answered success false${message(response.body) ? `: ${message(response.body)}` : '.'}` };
  }
  return disputeAnswerOutcome(response, 'Adyen', message);
}

/**
 * What of the evidence Adyen cannot take, before anything is sent: text (Adyen takes documents), a file
 * format it does not take, or a submission without the defense reason code its defendDispute requires.
 */
export function adyenEvidenceUnsupported(evidence: DisputeEvidence): DisputeActionOutcome | null {
  const textField = Object.keys(evidence.text)[0];
  if (textField)
    return {
      status: 'unsupported',
      field: `evidence.${textField}`,
      detail: 'Adyen takes defense documents only, no text: send it as a file (PDF, JPEG or TIFF).',
    };
  const format = unsupportedFileType(evidence, 'Adyen', ADYEN_EVIDENCE_CONTENT_TYPES);
  if (format) return format;
  if (evidence.submit && !evidence.defense_reason_code) {
    return {
      status: 'unsupported',
      field: 'defense_reason_code',
      detail:
        'Adyen defends a dispute with a defense reason code (such as SupplyDefenseMaterial; its retrieveApplicableDefenseReasons lists those of the dispute): give defense_reason_code.',
    };
  }
  return null;
}
