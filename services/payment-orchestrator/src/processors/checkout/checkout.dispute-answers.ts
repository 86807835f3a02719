import type { Mode } from '@vaultline/core';
import type {
  DisputeEvidence,
  EvidenceContentType,
  EvidenceFile,
  EvidenceFileField,
  EvidenceTextField,
} from '../../domain/payment-vocabulary/dispute-evidence';
import type { DisputeActionOutcome, ProcessorDispute } from '../../domain/processor-port/processor-port';
import { disputeAnswerOutcome, toEvidenceFileUpload, unsupportedFileType } from '../dispute-answer-wire';
import { field, text, type ProcessorHttpRequest, type ProcessorHttpResponse } from '../processor-wire';
import type { CheckoutCredentials } from './checkout.account';
import { checkoutHeaders } from './checkout.mapper';

/**
 * Answering a Checkout.com dispute (pure), as its API reference takes it (checkout-api-reference nas_spec:
 * disputes@{dispute_id}@accept.yaml, disputes@{dispute_id}@evidence.yaml, files.yaml,
 * ProvideEvidenceRequest.yaml): `POST /disputes/{id}/accept` (204); evidence files uploaded first with
 * `POST /files` on the files host (multipart: `file`, `purpose: dispute_evidence`; JPEG/JPG, PNG or PDF
 * of at most 4 MB; answer `{id: file_…}`); `PUT /disputes/{id}/evidence` attaches the evidence (204:
 * "it does not send it to us"); `POST /disputes/{id}/evidence` submits it ("You will not be able to amend
 * your evidence once you have submitted it"). The evidence is a set of categories, each a `_file` and a
 * `_text` of at most 500 characters (a description, or a link).
 */
const CHECKOUT_FILES_SANDBOX_BASE_URL = 'https://files.sandbox.checkout.com';
const CHECKOUT_FILES_LIVE_BASE_URL = 'https://files.checkout.com';
const CHECKOUT_EVIDENCE_CONTENT_TYPES: readonly EvidenceContentType[] = ['application/pdf', 'image/jpeg', 'image/png'];
/** ProvideEvidenceRequest.yaml: every `_text` has `maximum: 500`. */
const CHECKOUT_EVIDENCE_TEXT_MAX = 500;

type Category =
  | 'proof_of_delivery_or_service'
  | 'invoice_or_receipt'
  | 'invoice_showing_distinct_transactions'
  | 'customer_communication'
  | 'refund_or_cancellation_policy'
  | 'additional_evidence'
  | 'proof_of_delivery_or_service_date';

/** Each of Stripe's file fields (our evidence's words) in Checkout.com's category that holds such a document. */
const FILE_CATEGORIES: Record<EvidenceFileField, Category> = {
  receipt: 'invoice_or_receipt',
  shipping_documentation: 'proof_of_delivery_or_service',
  service_documentation: 'proof_of_delivery_or_service',
  customer_communication: 'customer_communication',
  refund_policy: 'refund_or_cancellation_policy',
  cancellation_policy: 'refund_or_cancellation_policy',
  duplicate_charge_documentation: 'invoice_showing_distinct_transactions',
  customer_signature: 'additional_evidence',
  uncategorized_file: 'additional_evidence',
};

/** Each text field in the category whose description it belongs to. */
const TEXT_CATEGORIES: Record<EvidenceTextField, Category> = {
  shipping_address: 'proof_of_delivery_or_service',
  shipping_carrier: 'proof_of_delivery_or_service',
  shipping_tracking_number: 'proof_of_delivery_or_service',
  shipping_date: 'proof_of_delivery_or_service_date',
  service_date: 'proof_of_delivery_or_service_date',
  duplicate_charge_explanation: 'invoice_showing_distinct_transactions',
  duplicate_charge_id: 'invoice_showing_distinct_transactions',
  refund_policy_disclosure: 'refund_or_cancellation_policy',
  refund_refusal_explanation: 'refund_or_cancellation_policy',
  cancellation_policy_disclosure: 'refund_or_cancellation_policy',
  cancellation_rebuttal: 'refund_or_cancellation_policy',
  access_activity_log: 'additional_evidence',
  billing_address: 'additional_evidence',
  customer_email_address: 'additional_evidence',
  customer_name: 'additional_evidence',
  customer_purchase_ip: 'additional_evidence',
  product_description: 'additional_evidence',
  uncategorized_text: 'additional_evidence',
};

type Request = Omit<ProcessorHttpRequest, 'carries_card_data'>;

/** The files host of the mode, unless the account's base URL points elsewhere than Checkout.com's API hosts (a proxy, a stand-in), which then takes them. */
export function checkoutFilesBaseUrl(mode: Mode, accountBaseUrl: string | null): string {
  const own = accountBaseUrl?.replace(/\/+$/, '');
  if (own && !/^https:\/\/([a-z0-9-]+\.)?api\.(sandbox\.)?checkout\.com$/i.test(own)) return own;
  return mode === 'test' ? CHECKOUT_FILES_SANDBOX_BASE_URL : CHECKOUT_FILES_LIVE_BASE_URL;
}

const disputePath = (dispute: ProcessorDispute) => `/disputes/${encodeURIComponent(dispute.processor_reference)}`;
const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

export function toCheckoutAcceptDisputeRequest(credentials: CheckoutCredentials, dispute: ProcessorDispute): Request {
  return { method: 'POST', path: `${disputePath(dispute)}/accept`, headers: checkoutHeaders(credentials, dispute.idempotency_key) };
}

/** One evidence file to the files host (`POST /files`); its answer's `id` (file_…) goes in the category's `_file`. */
export function toCheckoutFileUploadRequest(credentials: CheckoutCredentials, file: EvidenceFile, idempotencyKey: string): Request {
  return toEvidenceFileUpload('/files', checkoutHeaders(credentials, idempotencyKey), file);
}

/** The categories' texts: each text field as "Label: value", one per line, in its category (with the text's length after each field). */
function categoryTexts(evidence: DisputeEvidence): Map<Category, { text: string; fields: string[]; lengths: number[] }> {
  const texts = new Map<Category, { text: string; fields: string[]; lengths: number[] }>();
  for (const [name, value] of Object.entries(evidence.text)) {
    if (value === undefined) continue;
    const category = TEXT_CATEGORIES[name as EvidenceTextField];
    const entry = texts.get(category) ?? { text: '', fields: [], lengths: [] };
    const text = `${entry.text}${entry.text ? '\n' : ''}${label(name)}: ${value}`;
    texts.set(category, { text, fields: [...entry.fields, `evidence.${name}`], lengths: [...entry.lengths, text.length] });
  }
  return texts;
}

/**
 * What of the evidence Checkout.com cannot take, before anything is sent: a file format it does not take,
 * two files for one of its categories (each holds one), or a category's text over 500 characters.
 */
export function checkoutEvidenceUnsupported(evidence: DisputeEvidence): DisputeActionOutcome | null {
  const format = unsupportedFileType(evidence, 'Checkout.com', CHECKOUT_EVIDENCE_CONTENT_TYPES);
  if (format) return format;
  const taken = new Map<Category, string>();
  for (const name of Object.keys(evidence.files)) {
    const category = FILE_CATEGORIES[name as EvidenceFileField];
    const earlier = taken.get(category);
    if (earlier)
      return {
        status: 'unsupported',
        field: `evidence.${name}`,
        detail: `Checkout.com takes one file for ${category}, and evidence.${earlier} is that file already: combine them into one document.`,
      };
    taken.set(category, name);
  }
  for (const [category, { text: joined, fields, lengths }] of categoryTexts(evidence)) {
    if (joined.length > CHECKOUT_EVIDENCE_TEXT_MAX) {
      // The field that takes the category's text over the limit.
      const over = fields[lengths.findIndex((length) => length > CHECKOUT_EVIDENCE_TEXT_MAX)]!;
      return {
        status: 'unsupported',
        field: over,
        detail: `Checkout.com takes at most ${CHECKOUT_EVIDENCE_TEXT_MAX} characters of text for ${category}; ${fields.join(', ')} make ${joined.length}. Send the rest as a file.`,
      };
    }
  }
  return null;
}

/** `PUT /disputes/{id}/evidence`: the uploaded files and the texts by category (ProvideEvidenceRequest). */
export function toCheckoutProvideEvidenceRequest(
  credentials: CheckoutCredentials,
  dispute: ProcessorDispute,
  evidence: DisputeEvidence,
  fileIds: Partial<Record<EvidenceFileField, string>>,
): Request {
  const body: Record<string, string> = {};
  for (const [name, id] of Object.entries(fileIds)) if (id) body[`${FILE_CATEGORIES[name as EvidenceFileField]}_file`] = id;
  for (const [category, { text: joined }] of categoryTexts(evidence)) body[`${category}_text`] = joined;
  return { method: 'PUT', path: `${disputePath(dispute)}/evidence`, headers: checkoutHeaders(credentials, `${dispute.idempotency_key}:provide`), body };
}

/** `POST /disputes/{id}/evidence`: submits what was provided. */
export function toCheckoutSubmitEvidenceRequest(credentials: CheckoutCredentials, dispute: ProcessorDispute): Request {
  return { method: 'POST', path: `${disputePath(dispute)}/evidence`, headers: checkoutHeaders(credentials, `${dispute.idempotency_key}:submit`) };
}

/** Checkout.com's answer (204 taken); an error body's `error_type` and `error_codes` quoted when refused. */
export function checkoutDisputeOutcome(response: ProcessorHttpResponse): DisputeActionOutcome {
  return disputeAnswerOutcome(response, 'Checkout.com', (body) => {
    const type = text(field(body, 'error_type'));
    const codes = field(body, 'error_codes');
    return type ? `${type}${Array.isArray(codes) && codes.length > 0 ? ` (${codes.map(String).join(', ')})` : ''}` : null;
  });
}
