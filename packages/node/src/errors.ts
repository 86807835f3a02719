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
 * An answer of the API that is not a success: the problem's `code` is stable and meant for code to
 * branch on; `field` names the offending input (dotted path) for input errors.
 */
export class VaultlineError extends Error {
  override readonly name = 'VaultlineError';
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly detail: string;
  readonly requestId: string | undefined;
  /** The problem document as received (or `undefined` when the body was not one). */
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined, requestId: string | undefined) {
    const code = problem?.code ?? `http_${status}`;
    const detail = problem?.detail ?? problem?.title ?? `The API answered ${status}.`;
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.code = code;
    this.field = problem?.field;
    this.detail = detail;
    this.requestId = problem?.request_id ?? requestId;
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
