import { createHash } from 'node:crypto';
import type { SimulatorRequest, SimulatorResponse } from './simulator.mapper';

/**
 * The simulator's fixed behaviour, by the card's first six and last four digits (all the orchestrator
 * knows of a card). A real card with the same digits gets the same answer: the simulator serves test
 * mode only.
 */
export const TEST_CARDS = {
  '400000/0002': 'card_declined',
  '400000/9995': 'insufficient_funds',
  '400000/3220': '3ri_fails',
  '400000/0259': 'capture_fails',
  '400000/0119': 'processor_error',
  /** 4000000000005126: captured normally, every refund of it fails (refund_failed). */
  '400000/5126': 'refund_fails',
} as const;

type Behaviour = (typeof TEST_CARDS)[keyof typeof TEST_CARDS] | 'approved';

export function behaviourOf(card: SimulatorRequest['card']): Behaviour {
  return (TEST_CARDS as Record<string, Behaviour>)[`${card.bin}/${card.last4}`] ?? 'approved';
}

/**
 * A reference of letters only, derived from the idempotency key: a reference made of hex digits can hold a
 * 13–19-digit Luhn-valid run, which every card-data scan (and the log masking) rightly takes for a PAN.
 */
function lettersOf(key: string): string {
  return Array.from(createHash('sha256').update(key).digest().subarray(0, 24), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

/** Deterministic: the same request gets the same answer, references derived from the idempotency key. */
export function simulate(request: SimulatorRequest, captureDelayMs: number, refundDelayMs = captureDelayMs): SimulatorResponse {
  const behaviour = behaviourOf(request.card);
  const psp_reference = `sim_${lettersOf(request.idempotency_key)}`;
  if (behaviour === 'processor_error') return { result: 'error', error_code: 'processor_unavailable' };
  switch (request.operation) {
    case 'risk':
      return { result: 'approved', psp_reference };
    case 'authentication_3ri':
      return behaviour === '3ri_fails' ? { result: 'declined', psp_reference, decline_code: 'authentication_failed' } : { result: 'approved', psp_reference };
    case 'authorization':
      if (behaviour === 'card_declined' || behaviour === 'insufficient_funds') return { result: 'declined', psp_reference, decline_code: behaviour };
      return { result: 'approved', psp_reference, network_transaction_reference: request.network_transaction_reference ?? `SIMNTR${psp_reference.slice(4, 28).toUpperCase()}` };
    case 'capture':
      return { result: 'pending', psp_reference: `${psp_reference}_capture`, check_after_ms: captureDelayMs };
    case 'capture_status':
      return behaviour === 'capture_fails' ? { result: 'declined', psp_reference, decline_code: 'capture_failed' } : { result: 'approved', psp_reference };
    case 'void':
      return { result: 'approved', psp_reference: `${psp_reference}_void` };
    case 'refund':
      return { result: 'pending', psp_reference: `${psp_reference}_refund`, check_after_ms: refundDelayMs };
    case 'refund_status':
      return behaviour === 'refund_fails' ? { result: 'declined', psp_reference, decline_code: 'refund_failed' } : { result: 'approved', psp_reference };
  }
}
