import type { z } from 'zod';
import type { Clock } from '@vaultline/core';
import type { CaptureOutcome, RefundOutcome, ProcessorCapabilities, ProcessorConnection, ProcessorId } from '../domain/ports';
import type { ProcessorTransport } from './processor-transport';

export interface ProcessorContext {
  clock: Clock;
  /** Real processors: how requests reach them (the forwarder for card data, egress otherwise). */
  transport?: ProcessorTransport;
  /** Real processors: how a capture settled, by the processor's notification (null while none arrived). */
  captureSettlement?: (reference: string) => Promise<CaptureOutcome | null>;
  /** Real processors: how a refund settled, by the processor's notification (null while none arrived). */
  refundSettlement?: (reference: string) => Promise<RefundOutcome | null>;
}

/**
 * A processor attached through a plugin: its capabilities, the options it needs (validated at start,
 * each plugin its own slice), and `open`, which gives the engine a connection. A connection holds no
 * per-request state: one serves every payment.
 */
export interface ProcessorPlugin<O = unknown> {
  id: ProcessorId;
  capabilities: ProcessorCapabilities;
  optionsSchema: z.ZodType<O>;
  open(options: O, context: ProcessorContext): ProcessorConnection;
}
