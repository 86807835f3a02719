/**
 * The vault's internal detokenization, the one way card data leaves the vault for the forwarder.
 * Two transports carry the same call: HTTP (`POST /internal/tokens/{id}/detokenize` with
 * `{ purpose }`, the internal JWT in `Authorization: Bearer`), and, when both services run in one
 * process (embedded profile), a direct call of `VaultInternalApi.detokenize`. Both go through the
 * same rule in the vault: the token is verified, only the forwarder holding tokens:detokenize is
 * answered, and every attempt is audited before card data is released.
 */

export type DetokenizedSecurityCodeStatus = 'available' | 'expired' | 'not_collected';

/** The vault's answer (the HTTP route's JSON body). Internal only: the gateway never routes /internal/*. */
export interface DetokenizedCardDto {
  token_id: string;
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string | null;
  cvc_status: DetokenizedSecurityCodeStatus;
  cardholder_name: string | null;
  scheme: string;
}

export interface DetokenizeRequest {
  /** The caller's internal JWT, the text that would travel in `Authorization: Bearer`. */
  bearerToken: string;
  tokenId: string;
  purpose: string;
  /**
   * The caller's own request id for this detokenization (the forwarder mints one per forward), kept
   * in the audit record as request_id (as X-Request-Id over HTTP). Never an id a client chose.
   */
  requestId: string;
  /**
   * The X-Request-Id the merchant's client sent, kept in the audit record apart, as
   * client_request_id (in the body over HTTP); a malformed one is kept as null.
   */
  clientRequestId?: string | null;
}

/**
 * The vault's internal API as an object, for a caller in the same process. It throws the vault's
 * typed errors (AppError from libs/core), with the status the HTTP route would answer: 401 invalid
 * token, 403 insufficient_scope, 404 token_not_found, 410 token_deleted, 422 invalid input.
 */
export interface VaultInternalApi {
  detokenize(request: DetokenizeRequest): Promise<DetokenizedCardDto>;
}
