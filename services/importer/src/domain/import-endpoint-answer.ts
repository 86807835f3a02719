import type { ImportEndpointAnswer } from './import-provider';

export type ImportVerdict =
  | { kind: 'accepted' }
  | { kind: 'rejected'; reason: string }
  /** uncertain: a 5xx, after which the card may have been stored all the same. */
  | { kind: 'retry'; uncertain: boolean }
  | { kind: 'credential_rejected' };

const REASON_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * What /cde-import's answer (relayed by the platform) means for one payment method.
 * 2xx: the vault stored it and publishes token.created, which counts it. 401/403: our job-scoped key
 * no longer works, nothing else will. 409/429/5xx: try again. Other 4xx: the card was refused; the
 * reason is the vault's problem code only (never its detail, never card data).
 */
export function judgeImportAnswer(answer: ImportEndpointAnswer): ImportVerdict {
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: 'accepted' };
  if (status === 401 || status === 403) return { kind: 'credential_rejected' };
  if (status === 409 || status === 429 || status >= 500) return { kind: 'retry', uncertain: status >= 500 };
  const reason = answer.code && REASON_CODE.test(answer.code) ? answer.code : `import_rejected_${status}`;
  return { kind: 'rejected', reason };
}
