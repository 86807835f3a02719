import { isAllowedReturnUrl } from '@vaultline/contracts';
import {
  type ActionRequiredOutcome,
  type AuthenticationResult,
  type ConsumerAuthentication,
  type PendingAuthentication,
  type ThreeDsSetting,
} from '../payment-vocabulary/authentication';
import { type Payment } from './payment';
import { isConsumerPresent } from '../payment-vocabulary/use-case';

/**
 * The engine's 3-D Secure rules (pure): what an authorization is told, whether an "authenticate the
 * consumer" answer can be followed, and what the payment keeps of a result.
 */

/**
 * What a consumer-present authorization is told about 3-D Secure; null when no consumer can authenticate
 * (merchant-initiated payments, payments without a hosted page) or the flow says off.
 */
export function consumerAuthenticationOf(payment: Payment, threeDs: ThreeDsSetting, returnUrlOf: (sessionId: string) => string): ConsumerAuthentication | null {
  if (!isConsumerPresent(payment.use_case) || !payment.session) return null;
  return {
    three_ds: threeDs,
    browser: payment.session.browser ?? null,
    return_url: returnUrlOf(payment.session.id),
    first_of_series: payment.use_case === 'RECURRING' || payment.use_case === 'UNSCHEDULED',
  };
}

/**
 * Whether the payment can wait for its consumer: the authorization was told it may ask (consumer present,
 * hosted page, three_ds not off), and the action is one the hosted page follows. Otherwise the answer
 * fails the payment with `authentication_required`. The action's address follows the rule of return_url:
 * https, or http on loopback (stand-ins), never javascript:, data: or a relative address.
 */
export function canAwaitConsumer(told: ConsumerAuthentication | null, outcome: ActionRequiredOutcome): boolean {
  const names = outcome.return_parameters;
  const namesOk = names.length > 0 && names.length <= MAX_RETURN_PARAMETERS && names.every((name) => name.length > 0 && name.length <= 64);
  return told !== null && told.three_ds !== 'off' && isAllowedReturnUrl(outcome.action.url) && namesOk;
}

/** A processor reads one or two parameters on the way back (the event to the hosted page carries at most this many names). */
const MAX_RETURN_PARAMETERS = 10;

/** The payment waiting for its consumer: processing still, due again when its session expires (abandoned then). */
export function awaitingConsumer(payment: Payment, processor: string, outcome: ActionRequiredOutcome, now: Date): Payment {
  const pending: PendingAuthentication = {
    processor,
    processor_reference: outcome.processor_reference,
    action: outcome.action,
    resume: outcome.resume,
    return_parameters: outcome.return_parameters,
    requested_at: now.toISOString(),
    returned: null,
  };
  return { ...payment, pending_authentication: pending, next_run_at: payment.session?.expires_at ?? now.toISOString(), updated_at: now.toISOString() };
}

/** Whether a payment waiting for its consumer is abandoned: its session expired before the consumer came back. */
export function isAbandoned(payment: Payment, now: Date): boolean {
  const pending = payment.pending_authentication;
  return !!pending && pending.returned === null && !!payment.session && Date.parse(payment.session.expires_at) <= now.getTime();
}

export type RecordReturn = { payment: Payment; recorded: true } | { payment: Payment; recorded: false; reason: 'not_waiting' | 'already_returned' };

/**
 * The consumer came back with these parameters: only the ones the processor named are kept (each bounded),
 * and only the first return counts (a second one, a reload of the page, changes nothing). The payment is
 * then due at once: the runner resumes the authorization.
 */
export function recordReturn(payment: Payment, parameters: Record<string, string>, now: Date, maxLength: number): RecordReturn {
  const pending = payment.pending_authentication;
  if (!pending || payment.status !== 'processing') return { payment, recorded: false, reason: 'not_waiting' };
  if (pending.returned) return { payment, recorded: false, reason: 'already_returned' };
  const kept: Record<string, string> = {};
  for (const name of pending.return_parameters) {
    const value = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
    if (typeof value === 'string' && value.length <= maxLength) kept[name] = value;
  }
  return {
    payment: {
      ...payment,
      pending_authentication: { ...pending, returned: { parameters: kept, at: now.toISOString() } },
      next_run_at: now.toISOString(),
      updated_at: now.toISOString(),
    },
    recorded: true,
  };
}

/** What the payment keeps of a result once the authorization answered: the authentication value (CAVV) is dropped. */
export function keptAfterAuthorization(result: AuthenticationResult): AuthenticationResult {
  return { ...result, authentication_value: null };
}

/** Whether a result is worth a transaction of its own: an authentication ran (not_required records none). */
export function ranAuthentication(result: AuthenticationResult | null | undefined): result is AuthenticationResult {
  return !!result && result.status !== 'not_required';
}
