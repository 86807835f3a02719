/**
 * The evidence a merchant sends for a dispute, in Stripe's words (as the dispute's reasons are): the text
 * fields and the file fields of Stripe's dispute evidence (https://docs.stripe.com/api/disputes/evidence_object).
 * Each processor's plugin sends what its API takes of it (Stripe: every field; Checkout.com: its evidence
 * categories, a file and a text of at most 500 characters each; Adyen: defense documents only) and refuses,
 * before anything is sent, what it cannot take (422 evidence_not_supported naming the field).
 *
 * Files reach us base64 in the JSON body and are held only while the request is sent on: decoded in
 * memory, uploaded to the processor, never written to a store or a log. What the dispute keeps is when
 * its evidence was submitted.
 */

import { EVIDENCE_CONTENT_TYPES, EVIDENCE_FILE_FIELDS, EVIDENCE_TEXT_FIELDS } from '@vaultline/contracts';

export type EvidenceTextField = (typeof EVIDENCE_TEXT_FIELDS)[number];
export type EvidenceFileField = (typeof EVIDENCE_FILE_FIELDS)[number];
export type EvidenceContentType = (typeof EVIDENCE_CONTENT_TYPES)[number];

export interface EvidenceFile {
  filename: string;
  content_type: EvidenceContentType;
  content: Buffer;
  /** Adyen's defenseDocumentTypeCode for this file, when the merchant names one (others ignore it). */
  document_type: string | null;
}

export interface DisputeEvidence {
  text: Partial<Record<EvidenceTextField, string>>;
  files: Partial<Record<EvidenceFileField, EvidenceFile>>;
  /** Adyen defends a dispute with a defense reason code (its retrieveApplicableDefenseReasons lists them); others ignore it. */
  defense_reason_code: string | null;
  /** True: submitted for the issuer's review (the dispute moves to under_review). False: only staged at the processor. */
  submit: boolean;
}

/** The first bytes each format starts with: a file is what its content type says, or it is refused. */
const SIGNATURES: Record<EvidenceContentType, readonly Buffer[]> = {
  'application/pdf': [Buffer.from('%PDF-', 'latin1')],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  'image/tiff': [Buffer.from('II*\u0000', 'latin1'), Buffer.from('MM\u0000*', 'latin1')],
};

/** Whether the bytes are a file of that format (by its signature). */
export function contentMatchesType(content: Buffer, type: EvidenceContentType): boolean {
  return SIGNATURES[type].some((signature) => content.subarray(0, signature.length).equals(signature));
}
