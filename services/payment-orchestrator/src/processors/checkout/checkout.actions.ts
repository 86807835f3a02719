import type { StepOutcome } from '../../domain/processor-port/processor-port';
import { field, text, transportOutcome, type ProcessorHttpRequest, type ProcessorHttpResponse } from '../processor-wire';
import type { CheckoutCredentials } from './checkout.account';

/**
 * The settlement sweep's read: Checkout.com's `GET /payments/{id}/actions` lists every action of a payment
 * (Authorization, Capture, Refund, Void, …) with `approved`. Webhooks stay the fast path; when none has
 * settled an action after the recheck interval, the action is looked up here. Captures use it today;
 * refunds and voids plug in through the connection's `settleAction` with their own kind.
 */
export type CheckoutActionType = 'Capture' | 'Refund' | 'Void';

export function toCheckoutActionsRequest(credentials: CheckoutCredentials, paymentId: string): ProcessorHttpRequest {
  return {
    method: 'GET',
    path: `/payments/${encodeURIComponent(paymentId)}/actions`,
    headers: { authorization: `Bearer ${credentials.secret_key}` },
    carries_card_data: false,
  };
}

const FAILURE_REASONS: Record<CheckoutActionType, string> = { Capture: 'capture_failed', Refund: 'refund_failed', Void: 'void_failed' };

/**
 * How the action settled (pure): the action with this id, or, without one (an automatic capture, whose
 * action id we never got), the newest action of the type. Null while Checkout.com lists none (not processed
 * yet); an `error` outcome when the question went unanswered (the caller keeps waiting).
 */
export function fromCheckoutActionsResponse(response: ProcessorHttpResponse, type: CheckoutActionType, actionId: string | null): StepOutcome | null {
  const transport = transportOutcome(response.status);
  if (transport) return transport.status === 'error' ? transport : { status: 'error', failure_reason: transport.failure_reason };
  if (!Array.isArray(response.body)) return { status: 'error', failure_reason: 'processor_invalid_response' };
  const actions = (response.body as unknown[]).filter((action) => field(action, 'type') === type);
  const action = actionId ? actions.find((candidate) => field(candidate, 'id') === actionId) : actions[0];
  if (!action) return null;
  const id = text(field(action, 'id'));
  if (field(action, 'approved') === true) return { status: 'succeeded', processor_reference: id };
  if (field(action, 'approved') === false) return { status: 'failed', failure_reason: FAILURE_REASONS[type], processor_reference: id };
  return null;
}
