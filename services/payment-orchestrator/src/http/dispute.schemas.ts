import { z } from 'zod';
import { ValidationError } from '@vaultline/core';
import { DISPUTE_STATUSES } from '../domain/disputes/dispute';
import {
  contentMatchesType,
  type DisputeEvidence,
  type EvidenceFile,
  type EvidenceFileField,
  type EvidenceTextField,
} from '../domain/payment-vocabulary/dispute-evidence';
import {
  EVIDENCE_CONTENT_TYPES,
  EVIDENCE_FILE_FIELDS,
  EVIDENCE_FILE_MAX_BYTES,
  EVIDENCE_TEXT_FIELDS,
  EVIDENCE_TEXT_MAX,
  EVIDENCE_TEXT_TOTAL_MAX,
  FRAUD_TYPES,
} from '@vaultline/contracts';

const paymentId = z.string().uuid({ message: 'must be a payment id.' });

/** GET /disputes filters (declared here, with the route: the query parameters it reads). */
export const DISPUTE_FILTERS = ['status', 'payment_id'] as const;
export const disputeSearchQuery = z.object({
  status: z.enum(DISPUTE_STATUSES as [string, ...string[]]).optional(),
  payment_id: paymentId.optional(),
});

/** GET /early-fraud-warnings filters. */
export const EARLY_FRAUD_WARNING_FILTERS = ['payment_id', 'fraud_type', 'actionable'] as const;
export const earlyFraudWarningSearchQuery = z.object({
  payment_id: paymentId.optional(),
  fraud_type: z.enum(FRAUD_TYPES).optional(),
  actionable: z
    .enum(['true', 'false'], { message: 'actionable must be true or false.' })
    .transform((value) => value === 'true')
    .optional(),
});

/** The longest base64 text of a file within the limit (4 characters per 3 bytes, padded). */
const BASE64_MAX = Math.ceil(EVIDENCE_FILE_MAX_BYTES / 3) * 4;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const processorCode = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: "must be the processor's code (letters, digits, _ and -)." });

const evidenceFile = z
  .object({
    filename: z
      .string()
      .min(1)
      .max(100)
      .refine((name) => !/[/\\]/.test(name) && [...name].every((char) => char.charCodeAt(0) >= 0x20), {
        message: 'must be a file name without a path or control characters.',
      }),
    content_type: z.enum(EVIDENCE_CONTENT_TYPES),
    /** The file's bytes, base64 (standard alphabet, padded). */
    data: z
      .string()
      .min(4)
      .max(BASE64_MAX, { message: `must be at most ${EVIDENCE_FILE_MAX_BYTES} bytes once decoded (base64 of at most ${BASE64_MAX} characters).` })
      .regex(BASE64, { message: 'must be base64 (standard alphabet, padded).' }),
    document_type: processorCode.optional(),
  })
  .strict();

const evidenceFields = z
  .object({
    ...Object.fromEntries(EVIDENCE_TEXT_FIELDS.map((name) => [name, z.string().min(1).max(EVIDENCE_TEXT_MAX).optional()])),
    ...Object.fromEntries(EVIDENCE_FILE_FIELDS.map((name) => [name, evidenceFile.optional()])),
  })
  .strict();

export const evidenceBody = z
  .object({
    evidence: evidenceFields.optional(),
    defense_reason_code: processorCode.optional(),
    submit: z.boolean().optional(),
  })
  .strict();

/**
 * The evidence as the domain takes it: each file decoded (and checked to be what its content type says),
 * the text within Stripe's total for a dispute. Nothing of it is kept once the request is answered.
 */
export function evidenceOf(body: z.infer<typeof evidenceBody>): DisputeEvidence {
  const given = (body.evidence ?? {}) as Record<string, unknown>;
  const text: DisputeEvidence['text'] = {};
  const files: DisputeEvidence['files'] = {};
  let characters = 0;
  for (const name of EVIDENCE_TEXT_FIELDS) {
    const value = given[name];
    if (typeof value !== 'string') continue;
    text[name as EvidenceTextField] = value;
    characters += value.length;
  }
  if (characters > EVIDENCE_TEXT_TOTAL_MAX)
    throw new ValidationError('evidence', `The text evidence of a dispute is at most ${EVIDENCE_TEXT_TOTAL_MAX} characters together; this is ${characters}.`);
  for (const name of EVIDENCE_FILE_FIELDS) {
    const file = given[name] as z.infer<typeof evidenceFile> | undefined;
    if (!file) continue;
    const content = Buffer.from(file.data, 'base64');
    if (content.length > EVIDENCE_FILE_MAX_BYTES)
      throw new ValidationError(
        `evidence.${name}.data`,
        `evidence.${name}.data must be at most ${EVIDENCE_FILE_MAX_BYTES} bytes once decoded; it is ${content.length}.`,
      );
    if (!contentMatchesType(content, file.content_type))
      throw new ValidationError(`evidence.${name}.data`, `evidence.${name}.data is not a ${file.content_type} file (its first bytes say otherwise).`);
    files[name as EvidenceFileField] = {
      filename: file.filename,
      content_type: file.content_type,
      content,
      document_type: file.document_type ?? null,
    } satisfies EvidenceFile;
  }
  const submit = body.submit ?? true;
  if (!submit && Object.keys(text).length === 0 && Object.keys(files).length === 0)
    throw new ValidationError('evidence', 'Nothing to send: give evidence to stage, or submit (submit: true) what is staged.');
  return { text, files, defense_reason_code: body.defense_reason_code ?? null, submit };
}
