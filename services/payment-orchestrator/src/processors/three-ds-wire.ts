import type { AuthorizationInput } from './processor-wire';

/** What the authorization step asks of 3-D Secure. */
export type ThreeDsSetting = 'off' | 'if_required' | 'always';

/** The consumer's browser, as the hosted page read it (3-D Secure 2 browser data). */
export interface ConsumerBrowser {
  user_agent: string;
  accept_header: string;
  language: string;
  color_depth: number;
  screen_height: number;
  screen_width: number;
  time_zone_offset: number;
  java_enabled: boolean;
}

/** A consumer-present authorization's 3-D Secure context. */
export interface ConsumerAuthenticationInput {
  three_ds: ThreeDsSetting;
  browser: ConsumerBrowser | null;
  /** The hosted page the issuer sends the consumer back to. */
  return_url: string;
}

/** Where the consumer's browser goes to authenticate: a GET, or a POST of `data` as a form. */
export interface ProcessorRedirect {
  url: string;
  method: 'GET' | 'POST';
  data?: Record<string, string>;
}

export type AuthenticationStatus = 'authenticated' | 'attempted' | 'failed' | 'not_required';

/** A processor's 3-D Secure result, as the payment shows it (plus what an authorization needs). */
export interface ProcessorAuthentication {
  type: '3ds';
  version: string | null;
  status: AuthenticationStatus;
  eci: string | null;
  liability_shift: boolean;
  authentication_value: string | null;
  ds_transaction_id: string | null;
}

/** The first payment of a recurring or unscheduled series: the schemes want its challenge as a mandate. */
export function isFirstOfSeries(payment: Pick<AuthorizationInput, 'use_case'>): boolean {
  return payment.use_case === 'RECURRING' || payment.use_case === 'UNSCHEDULED';
}

/**
 * EMV 3-D Secure transStatus (and Checkout.com's authentication_response, the same letters) → status:
 * Y authenticated, A attempted (the issuer or scheme stood in), anything else (N not authenticated,
 * R rejected, U unavailable, C/D challenge not finished) failed.
 */
export function threeDsAuthenticationStatus(transStatus: string): AuthenticationStatus {
  if (transStatus === 'Y') return 'authenticated';
  if (transStatus === 'A') return 'attempted';
  return 'failed';
}
