import type { Mode } from '@vaultline/core';
import type { ProcessorAmounts } from './processor-amounts';

export interface ProcessorCapabilities {
  authorize: boolean;
  capture: boolean;
  partialCapture: boolean;
  /**
   * Several captures of one authorization (`final_capture: false` keeps the rest for later captures):
   * Stripe multicapture, Checkout.com capture_type NonFinal, Adyen with multiple partial captures enabled.
   */
  multipleCaptures: boolean;
  authentication3ri: boolean;
  risk: boolean;
  /** Merchant-initiated unscheduled payments as such (else they are sent as recurring). */
  explicitUnscheduledMit: boolean;
  /**
   * 3-D Secure for consumer-present authorizations: the connection honours `consumer_authentication`,
   * may answer action_required and implements resumeAuthorization. A flow whose authorization step says
   * `three_ds: always` needs it of every processor of the step.
   */
  authentication3ds: boolean;
  /** The key modes the processor may serve: the simulator serves test only. */
  modes: readonly Mode[];
}

/**
 * What the flow rules need of the processors: which exist and what each can do. `Processors` (the opened
 * connections) is one; flows depend on this alone, not on the processor port and the payment it names.
 */
export interface ProcessorLookup {
  get(id: string): { readonly id: string; readonly capabilities: ProcessorCapabilities; readonly amounts?: ProcessorAmounts } | undefined;
  ids(): readonly string[];
}
