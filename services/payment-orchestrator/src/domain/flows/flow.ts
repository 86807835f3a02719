import { AppError, ValidationError } from '@vaultline/core';
import type { ProcessorLookup } from '../processor-port/processor-lookup';
import { AmountNotSupported, amountProblem, ISO_AMOUNTS, type AmountPurpose } from '../processor-port/processor-amounts';
import { DEFAULT_THREE_DS, THREE_DS_SETTINGS, type ThreeDsSetting } from '../payment-vocabulary/authentication';
import { validateStepRouting, type StepRouting } from './step-routing';

export type StepKind = 'risk' | 'authentication_3ri' | 'authorization' | 'capture';
export type CaptureMode = 'automatic' | 'manual';
/** What a failed (declined) step does: stop the payment, or continue with the next step. */
export type FailurePolicy = 'stop' | 'continue';

export interface FlowStep extends StepRouting {
  kind: StepKind;
  processor: string;
  on_failure: FailurePolicy;
  /** Processors tried in order when this step ends in a retryable processor error (never on a decline). */
  fallback: string[];
  /** Authorization steps: 3-D Secure for consumer-present payments (domain/payment/authentication.ts). Absent: if_required. */
  three_ds?: ThreeDsSetting;
  /**
   * Authorization steps given as `processors: [a, b, …]`: the list as sent (processor is its first, fallback
   * the rest, so the engine reads every step alike). Absent on steps given as processor and fallback.
   */
  processors?: string[];
}

export interface Flow {
  name: string;
  capture_mode: CaptureMode;
  steps: FlowStep[];
  built_in: boolean;
  created_at: string | null;
}

const simulatorSteps: FlowStep[] = [
  { kind: 'authentication_3ri', processor: 'simulator', on_failure: 'continue', fallback: [] },
  { kind: 'authorization', processor: 'simulator', on_failure: 'stop', fallback: [], three_ds: 'if_required' },
  { kind: 'capture', processor: 'simulator', on_failure: 'stop', fallback: [] },
];

/** Every merchant has these, under these exact names. */
export const BUILT_IN_FLOWS: Readonly<Record<string, Flow>> = {
  simulator_auto_capture: { name: 'simulator_auto_capture', capture_mode: 'automatic', steps: simulatorSteps, built_in: true, created_at: null },
  simulator_manual_capture: { name: 'simulator_manual_capture', capture_mode: 'manual', steps: simulatorSteps, built_in: true, created_at: null },
};

export const DEFAULT_FLOW = 'simulator_auto_capture';

/** The built-in flow of that name; own keys only, so a name such as `constructor` or `__proto__` is no flow. */
export function builtInFlow(name: string): Flow | undefined {
  return Object.hasOwn(BUILT_IN_FLOWS, name) ? BUILT_IN_FLOWS[name] : undefined;
}

/** The authorization step's 3-D Secure setting (flows stored before it existed: the default). */
export function threeDsOf(step: FlowStep | undefined): ThreeDsSetting {
  return step?.three_ds ?? DEFAULT_THREE_DS;
}

/** A new flow's steps as stored: the authorization step says its three_ds setting (the default when not given). */
export function withThreeDsDefault(steps: FlowStep[]): FlowStep[] {
  return steps.map((step) => (step.kind === 'authorization' ? { ...step, three_ds: threeDsOf(step) } : step));
}

export function processorsOf(flow: Flow): string[] {
  return [...new Set(flow.steps.flatMap((step) => [step.processor, ...step.fallback]))];
}

export function usesSimulator(flow: Flow): boolean {
  return processorsOf(flow).includes('simulator');
}

export function stepOf(flow: Flow, kind: StepKind): FlowStep | undefined {
  return flow.steps.find((step) => step.kind === kind);
}

/** The processors that may authorize the flow's payments: the authorization step's, then its fallbacks. */
function authorizers(flow: Flow, processors: ProcessorLookup) {
  const step = stepOf(flow, 'authorization');
  return step ? [step.processor, ...step.fallback].map((id) => processors.get(id)).filter((p) => p !== undefined) : [];
}

/**
 * Of a step's processors, in the step's order, those that can take the amount, and why each other one
 * cannot. A processor the lookup does not know stays in (it answers processor_unavailable when asked).
 */
function processorsTaking(
  ids: readonly string[],
  processors: ProcessorLookup,
  amount: number,
  currency: string,
  purpose: AmountPurpose,
): { taking: string[]; refusals: string[] } {
  const taking: string[] = [];
  const refusals: string[] = [];
  for (const id of ids) {
    const problem = amountProblem(processors.get(id)?.amounts ?? ISO_AMOUNTS, amount, currency, purpose);
    if (problem) refusals.push(problem);
    else taking.push(id);
  }
  return { taking, refusals };
}

/**
 * The authorization step's processors that can take the payment's amount, in the step's order: the ones
 * that cannot are passed over (nothing is sent to them, no transaction), as an unavailable one would be.
 * None left: 422 amount_not_supported naming each processor's rule (at creation, before anything is
 * stored; a flow chosen again once the card is known fails the payment with that reason instead).
 */
export function authorizersTaking(flow: Flow, processors: ProcessorLookup, amount: number, currency: string): string[] {
  const step = stepOf(flow, 'authorization');
  if (!step) return [];
  const { taking, refusals } = processorsTaking([step.processor, ...step.fallback], processors, amount, currency, 'charge');
  if (taking.length === 0) throw new AmountNotSupported(`No processor of the flow ${flow.name} can take this amount. ${refusals.join(' ')}`);
  return taking;
}

/** Whether each processor that may authorize marks a merchant-initiated payment as unscheduled (else it is sent as recurring). */
export function declaresExplicitUnscheduled(flow: Flow, processors: ProcessorLookup): boolean {
  return authorizers(flow, processors).every((processor) => processor.capabilities.explicitUnscheduledMit);
}

/**
 * Whether a payment with a stored card asks the consumer for its security code: a real processor
 * (Adyen, Checkout.com) authorizes a consumer-present payment with it; the simulator needs none.
 */
export function needsSecurityCode(flow: Flow, processors: ProcessorLookup): boolean {
  return authorizers(flow, processors).some((processor) => processor.id !== 'simulator');
}

/** How many flows one merchant may define (in each mode): enough for any routing, few enough to read whole. */
export const MAX_FLOWS_PER_MERCHANT = 500;

export class FlowLimitReached extends AppError {
  constructor() {
    super(
      'flow_limit_reached',
      422,
      `A merchant defines at most ${MAX_FLOWS_PER_MERCHANT} flows; reuse one of them (flows are immutable and shared by every rule that names them).`,
    );
  }
}

export class FlowExists extends AppError {
  constructor(name: string) {
    super('flow_exists', 409, `A flow named ${name} already exists; flows are immutable, create one under a new name.`, { field: 'name' });
  }
}

export class FlowNotFound extends AppError {
  constructor(name: string) {
    super('flow_not_found', 404, `No flow named ${name}.`);
  }
}

const CAPABILITY_OF: Record<StepKind, 'risk' | 'authentication3ri' | 'authorize' | 'capture'> = {
  risk: 'risk',
  authentication_3ri: 'authentication3ri',
  authorization: 'authorize',
  capture: 'capture',
};

/**
 * The rules every flow keeps (pure): risk and 3RI come before the one authorization, the one capture
 * comes after it, each step's processors exist and can do the step, and a capture goes to the
 * processor that authorized (so the capture step names the authorization's processor).
 */
export function validateFlow(flow: Flow, processors: ProcessorLookup): void {
  const steps = flow.steps;
  const authorizations = steps.filter((s) => s.kind === 'authorization').length;
  if (authorizations !== 1) throw new ValidationError('steps', 'A flow has exactly one authorization step.', 'invalid_flow');
  const authorizationAt = steps.findIndex((s) => s.kind === 'authorization');
  const captures = steps.filter((s) => s.kind === 'capture');
  if (captures.length !== 1)
    throw new ValidationError('steps', 'A flow has exactly one capture step (run automatically or by the capture call, by capture_mode).', 'invalid_flow');
  steps.forEach((step, index) => {
    const field = `steps[${index}]`;
    if (steps.findIndex((s) => s.kind === step.kind) !== index)
      throw new ValidationError(`${field}.kind`, `A flow has at most one ${step.kind} step.`, 'invalid_flow');
    if ((step.kind === 'risk' || step.kind === 'authentication_3ri') && index > authorizationAt) {
      throw new ValidationError(`${field}.kind`, `The ${step.kind} step comes before the authorization.`, 'invalid_flow');
    }
    if (step.kind === 'capture' && index < authorizationAt)
      throw new ValidationError(`${field}.kind`, 'The capture step comes after the authorization.', 'invalid_flow');
    for (const [at, id] of [step.processor, ...step.fallback].entries()) {
      const processorField = step.processors ? `${field}.processors[${at}]` : at === 0 ? `${field}.processor` : `${field}.fallback[${at - 1}]`;
      const processor = processors.get(id);
      if (!processor) throw new ValidationError(processorField, `No processor named ${id}; known: ${processors.ids().join(', ')}.`, 'unknown_processor');
      if (!processor.capabilities[CAPABILITY_OF[step.kind]]) {
        throw new ValidationError(processorField, `The processor ${id} cannot do ${step.kind}.`, 'processor_capability_missing');
      }
    }
    validateThreeDs(step, field, processors);
    validateStepRouting(step, field, processors);
    if (step.kind === 'capture' && step.fallback.length > 0)
      throw new ValidationError(`${field}.fallback`, 'A capture goes to the processor that authorized: it has no fallback.', 'invalid_flow');
  });
  const authorization = steps[authorizationAt]!;
  const capture = captures[0]!;
  const fallbackCannotCapture = authorization.fallback.some((id) => !processors.get(id)?.capabilities.capture);
  if (capture.processor !== authorization.processor || fallbackCannotCapture) {
    throw new ValidationError(
      'steps',
      "The capture step names the authorization's processor, and every fallback of the authorization can capture.",
      'invalid_flow',
    );
  }
}

/** three_ds belongs to the authorization step; `always` asks a challenge of every processor of the step, so each must run 3-D Secure. */
function validateThreeDs(step: FlowStep, field: string, processors: ProcessorLookup): void {
  if (step.three_ds === undefined) return;
  if (!THREE_DS_SETTINGS.includes(step.three_ds))
    throw new ValidationError(`${field}.three_ds`, `three_ds is one of ${THREE_DS_SETTINGS.join(', ')}.`, 'invalid_flow');
  if (step.kind !== 'authorization') throw new ValidationError(`${field}.three_ds`, 'Only the authorization step takes three_ds.', 'invalid_flow');
  if (step.three_ds !== 'always') return;
  const missing = [step.processor, ...step.fallback].find((id) => processors.get(id)?.capabilities.authentication3ds === false);
  if (missing)
    throw new ValidationError(
      `${field}.three_ds`,
      `three_ds always needs 3-D Secure of every processor of the step; ${missing} does not run it.`,
      'processor_capability_missing',
    );
}
