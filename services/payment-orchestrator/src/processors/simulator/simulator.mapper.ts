import type { AuthenticationReturn, AuthenticationResult, ThreeDsSetting } from '../../domain/payment-vocabulary/authentication';
import type { AuthorizationOutcome, CaptureOutcome, ProcessorPayment, StepOutcome } from '../../domain/processor-port/processor-port';
import { simulatorDecline, SIMULATOR_DECLINES } from './simulator.declines';

/** The simulator's wire format: what a real processor's request and answer would be, card by its display data only. */
export interface SimulatorRequest {
  operation: 'risk' | 'authentication_3ri' | 'authorization' | 'authorization_resume' | 'capture' | 'capture_status' | 'void' | 'refund' | 'refund_status';
  amount: { value: number; currency: string };
  reference: string | null;
  card: { bin: string; last4: string };
  idempotency_key: string;
  network_transaction_reference: string | null;
  /** Consumer-present authorizations: the flow's setting and the hosted page's return address (absent: no 3-D Secure). */
  three_ds?: { setting: ThreeDsSetting; return_url: string } | null;
  /** authorization_resume: what the consumer chose on the challenge page (completed, failed; anything else fails). */
  challenge_result?: string | null;
  /** The payment's effective time (an account's outage windows are read on it); absent when the engine gave none. */
  effective_at?: string;
  /** A merchant-initiated payment (consumer absent): some test cards decline only these. */
  merchant_initiated?: boolean;
  /** The simulator account asked, when the flow names one: its approval rate and outage windows (absent: the built-in simulator, which approves). */
  account?: SimulatorAccount;
}

/** A simulator processor account's behaviour, from its settings. */
export interface SimulatorAccount {
  id: string;
  /** The share of ordinary cards it approves (the rest: card_declined); 1 approves every one. */
  approval_rate: number;
  /** When it answers nothing (processor_unavailable), on the payment's effective time. */
  outages: Array<{ from: string; to: string }>;
  /** When set, the approval draw hashes it with the payment's reference: the same references get the same answers in every run. */
  seed?: string;
}

/** The simulator's 3-D Secure answer beside an authorization's result. */
export type SimulatorAuthentication = Omit<AuthenticationResult, 'type'>;

export type SimulatorResponse =
  | { result: 'approved'; psp_reference: string; network_transaction_reference?: string; authentication?: SimulatorAuthentication }
  | { result: 'declined'; psp_reference: string; decline_code: string; advice_code?: string; authentication?: SimulatorAuthentication }
  | { result: 'challenge'; psp_reference: string; challenge_url: string; return_parameter: string }
  | { result: 'error'; error_code: string }
  | { result: 'pending'; psp_reference: string; check_after_ms: number };

/** Our payment → the simulator's request (pure); `account`: the simulator account asked, if any. */
export function toSimulatorRequest(payment: ProcessorPayment, operation: SimulatorRequest['operation'], account?: SimulatorAccount): SimulatorRequest {
  const masked = payment.masked_account_number;
  return {
    ...(account ? { account } : {}),
    ...(payment.effective_at ? { effective_at: payment.effective_at } : {}),
    ...(payment.use_case === 'SUBSEQUENT_RECURRING' || payment.use_case === 'SUBSEQUENT_UNSCHEDULED' ? { merchant_initiated: true } : {}),
    operation,
    amount: { value: payment.amount, currency: payment.currency_code },
    reference: payment.reference,
    card: { bin: masked.slice(0, 6), last4: masked.slice(-4) },
    idempotency_key: payment.idempotency_key,
    network_transaction_reference: payment.network_transaction_reference,
    ...(operation === 'authorization' && payment.consumer_authentication
      ? { three_ds: { setting: payment.consumer_authentication.three_ds, return_url: payment.consumer_authentication.return_url } }
      : {}),
  };
}

/** The consumer is back from the simulator's challenge page: the request that settles the authorization (pure). */
export function toSimulatorResumeRequest(
  payment: ProcessorPayment,
  returned: AuthenticationReturn,
  parameter: string,
  account?: SimulatorAccount,
): SimulatorRequest {
  return { ...toSimulatorRequest(payment, 'authorization_resume', account), challenge_result: returned.parameters[parameter] ?? null };
}

/** An authorization's answer, the challenge included → our outcome (pure). */
export function fromSimulatorAuthorizationResponse(response: SimulatorResponse): AuthorizationOutcome {
  if (response.result === 'challenge') {
    return {
      status: 'action_required',
      action: { type: 'redirect', url: response.challenge_url, method: 'GET', data: {} },
      processor_reference: response.psp_reference,
      resume: { psp_reference: response.psp_reference },
      return_parameters: [response.return_parameter],
    };
  }
  const outcome = fromSimulatorStepResponse(response);
  // A declined authorization carries its decline (simulator.declines.ts); a failed challenge is no decline.
  if (outcome.status === 'failed' && response.result === 'declined' && response.decline_code !== 'authentication_failed') {
    return { ...outcome, decline: simulatorDecline(response.decline_code, response.advice_code ?? null) };
  }
  return outcome;
}

/** The simulator's answer → our step outcome (pure). */
export function fromSimulatorResponse(response: SimulatorResponse): CaptureOutcome {
  switch (response.result) {
    case 'challenge':
      return { status: 'error', failure_reason: 'unexpected_challenge' };
    case 'approved':
      return {
        status: 'succeeded',
        processor_reference: response.psp_reference,
        ...(response.network_transaction_reference ? { network_transaction_reference: response.network_transaction_reference } : {}),
        ...(response.authentication ? { authentication: { type: '3ds' as const, ...response.authentication } } : {}),
      };
    case 'declined':
      return {
        status: 'failed',
        // The simulator's own code in our words (its stolen card is card_blocked, as at the real processors).
        failure_reason: SIMULATOR_DECLINES[response.decline_code]?.code ?? response.decline_code,
        processor_reference: response.psp_reference,
        ...(response.authentication ? { authentication: { type: '3ds' as const, ...response.authentication } } : {}),
      };
    case 'error':
      return { status: 'error', failure_reason: response.error_code };
    case 'pending':
      return { status: 'pending', processor_reference: response.psp_reference, poll_after_ms: response.check_after_ms };
  }
}

/** For steps that cannot be pending (everything but a capture). */
export function fromSimulatorStepResponse(response: SimulatorResponse): StepOutcome {
  if (response.result === 'challenge') return { status: 'error', failure_reason: 'unexpected_challenge' };
  const outcome = fromSimulatorResponse(response);
  return outcome.status === 'pending' ? { status: 'error', failure_reason: 'unexpected_pending' } : outcome;
}
