/** RFC 9457 problem details as the API answers them (application/problem+json). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  field?: string;
  request_id?: string;
}

/**
 * What kind of refusal an error is, the same in every Vaultline SDK (sdks/test-vectors/errors.json):
 * invalid_request (400, 413, 415, 422), authentication (401), permission (403), not_found (404),
 * conflict (409), rate_limit (429), server (5xx), api (any other status).
 */
export type ErrorKind = 'invalid_request' | 'authentication' | 'permission' | 'not_found' | 'conflict' | 'rate_limit' | 'server' | 'api';

export function errorKindOf(status: number): ErrorKind {
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'invalid_request';
  if (status >= 500) return 'server';
  return ({ 401: 'authentication', 403: 'permission', 404: 'not_found', 409: 'conflict', 429: 'rate_limit' } as const)[status as 401] ?? 'api';
}

/**
 * An answer of the API that is not a success: the problem's `code` is stable and meant for code to
 * branch on; `field` names the offending input (dotted path) for input errors.
 */
export class VaultlineError extends Error {
  override readonly name = 'VaultlineError';
  readonly status: number;
  readonly kind: ErrorKind;
  readonly code: string;
  readonly field: string | undefined;
  readonly detail: string;
  readonly requestId: string | undefined;
  /** The problem's type: the URI of the code's entry in the error reference (/docs/errors#code). */
  readonly type: string | undefined;
  /** The problem document as received (or `undefined` when the body was not one). */
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined, requestId: string | undefined) {
    const code = problem?.code ?? `http_${status}`;
    const detail = problem?.detail ?? problem?.title ?? `The API answered ${status}.`;
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.kind = errorKindOf(status);
    this.code = code;
    this.field = problem?.field;
    this.detail = detail;
    this.requestId = problem?.request_id ?? requestId;
    this.type = problem?.type;
    this.problem = problem;
  }

  /** Reads a failed response into an error (the response body is consumed). */
  static async fromResponse(response: Response): Promise<VaultlineError> {
    const text = await response.text().catch(() => '');
    return new VaultlineError(response.status, parseProblem(text), response.headers.get('x-request-id') ?? undefined);
  }
}

/** The API could not be reached (refused, reset, timed out) after every retry. */
export class VaultlineConnectionError extends Error {
  override readonly name = 'VaultlineConnectionError';
  readonly kind = 'connection';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** A webhook whose signature, timestamp or headers do not verify with the endpoint's secret. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function parseProblem(text: string): Problem | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Problem) : undefined;
  } catch {
    return undefined;
  }
}
