import type { AuthenticationReturn, AuthenticationResult, ThreeDsSetting } from '../../domain/payment/authentication';
import type { AuthorizationOutcome, CaptureOutcome, ProcessorPayment, StepOutcome } from '../../domain/processor-port/processor-port';

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
}

/** The simulator's 3-D Secure answer beside an authorization's result. */
export type SimulatorAuthentication = Omit<AuthenticationResult, 'type'>;

export type SimulatorResponse =
  | { result: 'approved'; psp_reference: string; network_transaction_reference?: string; authentication?: SimulatorAuthentication }
  | { result: 'declined'; psp_reference: string; decline_code: string; authentication?: SimulatorAuthentication }
  | { result: 'challenge'; psp_reference: string; challenge_url: string; return_parameter: string }
  | { result: 'error'; error_code: string }
  | { result: 'pending'; psp_reference: string; check_after_ms: number };

/** Our payment → the simulator's request (pure). */
export function toSimulatorRequest(payment: ProcessorPayment, operation: SimulatorRequest['operation']): SimulatorRequest {
  const masked = payment.masked_account_number;
  return {
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
export function toSimulatorResumeRequest(payment: ProcessorPayment, returned: AuthenticationReturn, parameter: string): SimulatorRequest {
  return { ...toSimulatorRequest(payment, 'authorization_resume'), challenge_result: returned.parameters[parameter] ?? null };
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
  return fromSimulatorStepResponse(response);
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
        failure_reason: response.decline_code,
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
