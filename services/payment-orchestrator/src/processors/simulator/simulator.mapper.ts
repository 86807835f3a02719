import type { CaptureOutcome, ProcessorPayment, StepOutcome } from '../../domain/ports';

/** The simulator's wire format: what a real processor's request and answer would be, card by its display data only. */
export interface SimulatorRequest {
  operation: 'risk' | 'authentication_3ri' | 'authorization' | 'capture' | 'capture_status' | 'void' | 'refund' | 'refund_status';
  amount: { value: number; currency: string };
  reference: string | null;
  card: { bin: string; last4: string };
  idempotency_key: string;
  network_transaction_reference: string | null;
}

export type SimulatorResponse =
  | { result: 'approved'; psp_reference: string; network_transaction_reference?: string }
  | { result: 'declined'; psp_reference: string; decline_code: string }
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
  };
}

/** The simulator's answer → our step outcome (pure). */
export function fromSimulatorResponse(response: SimulatorResponse): CaptureOutcome {
  switch (response.result) {
    case 'approved':
      return {
        status: 'succeeded',
        processor_reference: response.psp_reference,
        ...(response.network_transaction_reference ? { network_transaction_reference: response.network_transaction_reference } : {}),
      };
    case 'declined':
      return { status: 'failed', failure_reason: response.decline_code, processor_reference: response.psp_reference };
    case 'error':
      return { status: 'error', failure_reason: response.error_code };
    case 'pending':
      return { status: 'pending', processor_reference: response.psp_reference, poll_after_ms: response.check_after_ms };
  }
}

/** For steps that cannot be pending (everything but a capture). */
export function fromSimulatorStepResponse(response: SimulatorResponse): StepOutcome {
  const outcome = fromSimulatorResponse(response);
  return outcome.status === 'pending' ? { status: 'error', failure_reason: 'unexpected_pending' } : outcome;
}
