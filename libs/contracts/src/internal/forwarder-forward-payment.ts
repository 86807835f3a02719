/**
 * The forwarder's internal API for the payment orchestrator: a processor's authorization request
 * built as a template with the forwarder's placeholders (`{{ account_number }}` …) and sent through
 * the forwarder, so the orchestrator never holds card data. Two transports carry the same call, as for
 * the vault's internal API: HTTP (`POST /internal/forward/payments`, the internal JWT in
 * `Authorization: Bearer`), and, when both services run in one process (embedded profile), a direct
 * call of `ForwarderInternalApi.forwardPayment`. Both go through the same rule in the forwarder: the
 * token is verified, only the payment orchestrator holding forward:payments is answered, and the
 * request goes through the same allowlist, mode check, egress and `forward.completed` record as
 * `POST /forward`.
 */

export interface ForwardPaymentRequest {
  /** The caller's internal JWT (merchant, mode and scope come from it), the text of `Authorization: Bearer`. */
  bearerToken: string;
  /** The caller's request id for this call (kept with the forward record). */
  requestId: string;
  tokenId: string;
  /** The processor's payments URL: an allowed forward destination. */
  destinationUrl: string;
  /**
   * Only the headers the processors' manifests forward (forwarded_headers: their credential, idempotency key
   * and API version; processors/processor-manifest.ts), nothing else.
   */
  headers: Readonly<Record<string, string>>;
  /**
   * `json` (the default): the body is sent as JSON. `form`: the body is an object of text fields, sent
   * form-encoded (application/x-www-form-urlencoded) in their order (Stripe's API takes only that).
   */
  format?: ForwardPaymentFormat;
  /** The body with placeholders as whole values of the destination's card fields. */
  body: unknown;
}

export type ForwardPaymentFormat = 'json' | 'form';

/** The processor's answer, card numbers in it masked (the HTTP route's JSON body). */
export interface ForwardPaymentResponseDto {
  status: number;
  content_type: string | null;
  body: string;
}

/**
 * The forwarder's internal API as an object, for a caller in the same process. It throws the
 * forwarder's typed errors (AppError), with the status the HTTP route would answer: 401 invalid token,
 * 403 insufficient_scope, 422 destination or body refused, 503/504 destination unreachable or slow.
 */
export interface ForwarderInternalApi {
  forwardPayment(request: ForwardPaymentRequest): Promise<ForwardPaymentResponseDto>;
}
