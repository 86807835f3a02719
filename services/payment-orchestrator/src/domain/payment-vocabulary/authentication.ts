/**
 * 3-D Secure for consumer-present payments: what a flow's authorization step asks for, what the engine
 * tells a processor about the consumer's browser and the way back, what a processor answers when the
 * consumer must authenticate, and the result it reports. Processor-specific words (Adyen's paymentData,
 * Checkout.com's cko-session-id) stay in the processor folders: here they are opaque strings.
 */

/** A flow's authorization step: never, when the issuer or the processor asks (the default), or always (a challenge is requested). */
export const THREE_DS_SETTINGS = ['off', 'if_required', 'always'] as const;
export type ThreeDsSetting = (typeof THREE_DS_SETTINGS)[number];
/** New flows, the built-in flows and flows stored before the setting existed. */
export const DEFAULT_THREE_DS: ThreeDsSetting = 'if_required';

export type AuthenticationPreference = 'NO_3RI' | 'TRY_3RI' | 'REQUIRE_3RI';

export type AuthenticationStatus = 'authenticated' | 'attempted' | 'failed' | 'not_required';

/**
 * An authentication's result, from a 3-D Secure step of a consumer-present authorization or from the 3RI
 * step of a merchant-initiated payment, carried to the authorization. The merchant sees type, version,
 * status, eci and liability_shift; the authentication value (CAVV/AAV) is sent with the authorization and
 * dropped from the payment once the authorization answered.
 */
export interface AuthenticationResult {
  type: '3ds';
  /** The 3-D Secure protocol version, e.g. "2.2.0"; null when the processor did not say. */
  version: string | null;
  status: AuthenticationStatus;
  /** The Electronic Commerce Indicator ("05", "06", "07" for Visa; "02", "01", "00" for Mastercard). */
  eci: string | null;
  /** Whether the fraud liability shifted to the issuer. */
  liability_shift: boolean;
  /** CAVV / AAV: kept only until the authorization has used it. */
  authentication_value: string | null;
  /** The directory server's transaction id (dsTransID). */
  ds_transaction_id: string | null;
}

/** Where the consumer must go to authenticate: the issuer's (or the processor's) page. */
export interface RedirectAction {
  type: 'redirect';
  /** https (http on loopback for stand-ins); the hosted page refuses any other. */
  url: string;
  method: 'GET' | 'POST';
  /** POST: the form fields the hosted page submits (Adyen's action.data); GET: empty (the URL carries what it needs). */
  data: Record<string, string>;
}

/**
 * The browser data 3-D Secure 2 needs (EMVCo browser channel), as the hosted page collected it and the
 * vault completed it (accept header and client address, read server side).
 */
export interface BrowserInfo {
  user_agent: string;
  accept_header: string;
  /** IETF BCP 47 tag, navigator.language. */
  language: string;
  screen_width: number;
  screen_height: number;
  /** Bits per pixel (screen.colorDepth). */
  color_depth: number;
  /** Minutes from UTC as Date.getTimezoneOffset() gives them (UTC+2 is -120). */
  time_zone_offset: number;
  java_enabled: boolean;
  /** The consumer's address as the vault saw it; null when unknown. */
  ip_address: string | null;
}

/**
 * What the engine tells a processor about 3-D Secure when it authorizes a consumer-present payment
 * (`ProcessorPayment.consumer_authentication`; absent for merchant-initiated payments).
 */
export interface ConsumerAuthentication {
  three_ds: ThreeDsSetting;
  /** Null when the page sent none (a consumer whose browser refused the script, or a payment from before). */
  browser: BrowserInfo | null;
  /** Where the issuer's page sends the consumer back: the hosted page, which resumes the payment. */
  return_url: string;
  /** The first payment of a recurring or unscheduled series (the card is being stored): a challenge is mandated (Adyen "04", Checkout.com challenge_requested_mandate). */
  first_of_series: boolean;
}

/**
 * A processor's answer that the consumer must authenticate first. `resume` is what the adapter needs to
 * settle the payment once the consumer is back (Adyen's paymentData, Checkout.com's payment id): stored
 * on the payment, so never card data. `return_parameters` names the query parameters the adapter reads
 * on the way back (`redirectResult`, `cko-session-id`): the hosted page passes on those and no other.
 */
export interface ActionRequiredOutcome {
  status: 'action_required';
  action: RedirectAction;
  /** The processor's reference of the payment already (Checkout.com's pay_…), or null. */
  processor_reference: string | null;
  resume: Record<string, string>;
  return_parameters: string[];
}

/**
 * A payment waiting for its consumer to authenticate (it stays processing). `returned` is set when the
 * consumer came back (the hosted page passed the return parameters): the runner then resumes the
 * authorization, once, with the same idempotency key after a crash.
 */
export interface PendingAuthentication {
  /** The connection (processor id or account id) that asked: the resume goes to it. */
  processor: string;
  processor_reference: string | null;
  action: RedirectAction;
  resume: Record<string, string>;
  return_parameters: string[];
  requested_at: string;
  returned: { parameters: Record<string, string>; at: string } | null;
}

/**
 * What the consumer brought back, for `ProcessorConnection.resumeAuthorization`: the adapter's own
 * `resume` state from the action_required answer and the return parameters it named (only those).
 */
export interface AuthenticationReturn {
  processor_reference: string | null;
  resume: Record<string, string>;
  parameters: Record<string, string>;
}

/** The failure reasons of 3-D Secure (also the error catalogue's words for them). */
export const AUTHENTICATION_FAILURES = {
  /** The challenge failed (or the issuer refused the authentication): nothing was authorized. */
  failed: 'authentication_failed',
  /** The consumer never came back before the session expired. */
  abandoned: 'authentication_abandoned',
  /** The processor asked for an authentication the payment cannot run (three_ds off, merchant-initiated, no hosted page). */
  required: 'authentication_required',
} as const;

/** Most 3-D Secure return parameters are short; Adyen's redirectResult is the longest (a few kilobytes). */
export const MAX_RETURN_PARAMETER_LENGTH = 8_192;

/** Whether an authentication that failed ended the payment before any authorization was asked for. */
export function failedBeforeAuthorization(outcome: { status: string; failure_reason?: string }): boolean {
  return outcome.status === 'failed' && outcome.failure_reason === AUTHENTICATION_FAILURES.failed;
}
