import type { DisputeEvidence, EvidenceContentType, EvidenceFile } from '../../domain/payment-vocabulary/dispute-evidence';
import type { DisputeActionOutcome, ProcessorDispute } from '../../domain/processor-port/processor-port';
import { disputeAnswerOutcome, toEvidenceFileUpload, unsupportedFileType } from '../dispute-answer-wire';
import { field, text, type ProcessorHttpRequest, type ProcessorHttpResponse } from '../processor-wire';
import type { StripeCredentials } from './stripe.account';
import { STRIPE_BASE_URL } from './stripe.account';
import { stripeHeaders } from './stripe.mapper';

/**
 * Answering a Stripe dispute (pure requests and answers), as Stripe's API takes it
 * (https://docs.stripe.com/api/disputes): `POST /v1/disputes/{id}/close` accepts it (Stripe: "dismissing
 * the dispute, acknowledging it as lost"); `POST /v1/disputes/{id}` with `evidence[<field>]` (the text, or
 * the id of a file uploaded first with `POST https://files.stripe.com/v1/files`, multipart, `purpose:
 * dispute_evidence`) and `submit` sends evidence, staged (`submit=false`) or submitted for review.
 * Stripe takes evidence files as PDF, JPEG or PNG.
 */
const STRIPE_FILES_BASE_URL = 'https://files.stripe.com';
const STRIPE_EVIDENCE_CONTENT_TYPES: readonly EvidenceContentType[] = ['application/pdf', 'image/jpeg', 'image/png'];

type Request = Omit<ProcessorHttpRequest, 'carries_card_data'>;

/** Where files go: Stripe's file host, unless the account's base URL points elsewhere (an operator's proxy, a stand-in), which then takes them too. */
export function stripeFilesBaseUrl(apiBaseUrl: string): string {
  return apiBaseUrl === STRIPE_BASE_URL ? STRIPE_FILES_BASE_URL : apiBaseUrl;
}

const disputePath = (dispute: ProcessorDispute) => `/v1/disputes/${encodeURIComponent(dispute.processor_reference)}`;

export function toStripeCloseDisputeRequest(credentials: StripeCredentials, dispute: ProcessorDispute): Request {
  return { method: 'POST', path: `${disputePath(dispute)}/close`, headers: stripeHeaders(credentials, dispute.idempotency_key), format: 'form', body: {} };
}

/** One evidence file to Stripe's file host (`POST /v1/files`, purpose dispute_evidence); its answer's `id` (file_…) goes in the evidence field. */
export function toStripeFileUploadRequest(credentials: StripeCredentials, file: EvidenceFile, idempotencyKey: string): Request {
  return toEvidenceFileUpload('/v1/files', stripeHeaders(credentials, idempotencyKey), file);
}

/** `POST /v1/disputes/{id}`: every text field and uploaded file as `evidence[<field>]`, and `submit`. */
export function toStripeEvidenceRequest(
  credentials: StripeCredentials,
  dispute: ProcessorDispute,
  evidence: DisputeEvidence,
  fileIds: Record<string, string>,
): Request {
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(evidence.text)) if (value !== undefined) form[`evidence[${name}]`] = value;
  for (const [name, id] of Object.entries(fileIds)) form[`evidence[${name}]`] = id;
  form.submit = String(evidence.submit);
  return { method: 'POST', path: disputePath(dispute), headers: stripeHeaders(credentials, dispute.idempotency_key), format: 'form', body: form };
}

/** Stripe's answer: 200 with the Dispute taken, an error object's message quoted when refused. */
export function stripeOutcome(response: ProcessorHttpResponse): DisputeActionOutcome {
  return disputeAnswerOutcome(response, 'Stripe', (body) => text(field(field(body, 'error'), 'message')));
}

/** What of the evidence Stripe cannot take (nothing but a file format): refused before anything is sent. */
export function stripeEvidenceUnsupported(evidence: DisputeEvidence): DisputeActionOutcome | null {
  return unsupportedFileType(evidence, 'Stripe', STRIPE_EVIDENCE_CONTENT_TYPES);
}
