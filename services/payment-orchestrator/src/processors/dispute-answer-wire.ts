import type { DisputeEvidence, EvidenceContentType, EvidenceFile } from '../domain/payment-vocabulary/dispute-evidence';
import type { DisputeActionOutcome } from '../domain/processor-port/processor-port';
import { field, text, type ProcessorHttpRequest, type ProcessorHttpResponse } from './processor-wire';

/** A processor's message as quoted back to the merchant: one line, at most 300 characters. */
function quote(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * A processor's answer to a dispute call (pure): a 2xx is taken; a 5xx, 408, 429 or no answer is an error
 * (try again); any other 4xx is the processor's refusal, with its message when it gave one.
 */
export function disputeAnswerOutcome(response: ProcessorHttpResponse, processor: string, messageOf: (body: unknown) => string | null): DisputeActionOutcome {
  if (response.status >= 200 && response.status < 300) return { status: 'succeeded' };
  if (response.status >= 500 || response.status === 408 || response.status === 429)
    return { status: 'error', failure_reason: response.status === 429 ? 'processor_rate_limited' : 'processor_unavailable' };
  if (response.status === 401 || response.status === 403)
    return { status: 'refused', detail: `${processor} refused the processor account's credentials (HTTP ${response.status}).` };
  const message = messageOf(response.body);
  return {
    status: 'refused',
    detail: message ? `${processor} answered HTTP ${response.status}: ${quote(message)}` : `${processor} answered HTTP ${response.status}.`,
  };
}

/** The first evidence file whose format the processor does not take, as an `unsupported` outcome; null when it takes them all. */
export function unsupportedFileType(evidence: DisputeEvidence, processor: string, accepted: readonly EvidenceContentType[]): DisputeActionOutcome | null {
  for (const [name, file] of Object.entries(evidence.files)) {
    if (file && !accepted.includes(file.content_type)) {
      return {
        status: 'unsupported',
        field: `evidence.${name}.content_type`,
        detail: `${processor} takes evidence files as ${accepted.join(', ')}; evidence.${name} is ${file.content_type}.`,
      };
    }
  }
  return null;
}

/**
 * An evidence file's upload as Stripe's and Checkout.com's file endpoints both take it: multipart/form-data
 * with the `file` part and `purpose: dispute_evidence`.
 */
export function toEvidenceFileUpload(path: string, headers: Record<string, string>, file: EvidenceFile): Omit<ProcessorHttpRequest, 'carries_card_data'> {
  return {
    method: 'POST',
    path,
    headers,
    format: 'multipart',
    body: {
      fields: { purpose: 'dispute_evidence' },
      files: [{ name: 'file', filename: file.filename, content_type: file.content_type, content: file.content }],
    },
  };
}

/** The uploaded file's id (`id` of the answer), or the outcome that stops the answer (a refusal, an error). */
export function uploadedFileId(
  response: ProcessorHttpResponse,
  outcomeOf: (response: ProcessorHttpResponse) => DisputeActionOutcome,
): { id: string } | DisputeActionOutcome {
  const outcome = outcomeOf(response);
  if (outcome.status !== 'succeeded') return outcome;
  const id = text(field(response.body, 'id'));
  return id ? { id } : { status: 'error', failure_reason: 'processor_invalid_response' };
}

/** Uploads each evidence file in turn: the file ids by evidence field, or the first upload's outcome that stops the answer. */
export async function uploadEvidenceFiles(
  evidence: DisputeEvidence,
  upload: (name: string, file: EvidenceFile) => Promise<{ id: string } | DisputeActionOutcome>,
): Promise<{ ids: Record<string, string> } | { stopped: DisputeActionOutcome }> {
  const ids: Record<string, string> = {};
  for (const [name, file] of Object.entries(evidence.files)) {
    if (!file) continue;
    const uploaded = await upload(name, file);
    if ('status' in uploaded) return { stopped: uploaded };
    ids[name] = uploaded.id;
  }
  return { ids };
}
